(* Bare decode with memtrace's own reader: every event is parsed (backtraces included,
   which is what Reader.iter does by default) but no location code is ever looked up.
   This is the least work a program reading a trace with memtrace can do, so it is the
   yardstick for `memprof-oracle memtrace check`.

   Prints counts that depend on every event, so that no part of the decode can be
   skipped as dead code. *)

open Memtrace.Trace

let () =
  match Sys.argv with
  | [| _; filename |] ->
    let reader = Reader.open_ ~filename in
    let events = ref 0 and frames = ref 0 and ids = ref 0 in
    Reader.iter reader (fun _time ev ->
        incr events;
        match ev with
        | Event.Alloc { obj_id; backtrace_length; _ } ->
          frames := !frames + backtrace_length;
          ids := !ids lxor (obj_id :> int)
        | Event.Promote id | Event.Collect id -> ids := !ids lxor (id :> int));
    Reader.close reader;
    Printf.printf "events=%d frames=%d idxor=%d\n" !events !frames !ids
  | _ ->
    prerr_endline "usage: decode_bare TRACE";
    exit 2

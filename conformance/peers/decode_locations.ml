(* Decode with location lookups: like decode_bare, and in addition every backtrace entry
   of every allocation is resolved to its source locations through the reader's cache,
   as any tool that shows where memory was allocated must do. This is the work that
   `memprof-oracle memtrace check` also does when it validates every frame.

   Prints counts that depend on every lookup, so none can be skipped. *)

open Memtrace.Trace

let () =
  match Sys.argv with
  | [| _; filename |] ->
    let reader = Reader.open_ ~filename in
    let events = ref 0 and frames = ref 0 and locations = ref 0 and lines = ref 0 in
    Reader.iter reader (fun _time ev ->
        incr events;
        match ev with
        | Event.Alloc { backtrace_buffer; backtrace_length; _ } ->
          frames := !frames + backtrace_length;
          for i = 0 to backtrace_length - 1 do
            List.iter
              (fun (loc : Location.t) ->
                incr locations;
                lines := !lines + loc.line)
              (Reader.lookup_location_code reader backtrace_buffer.(i))
          done
        | Event.Promote _ | Event.Collect _ -> ());
    Reader.close reader;
    Printf.printf "events=%d frames=%d locations=%d linesum=%d\n" !events !frames !locations
      !lines
  | _ ->
    prerr_endline "usage: decode_locations TRACE";
    exit 2

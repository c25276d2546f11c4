(* Decode and re-encode with memtrace's own reader and writer: the yardstick for
   `memprof-oracle memtrace copy --format-version 2` (memtrace 0.2.3 writes v2).

   The writer is given the input's trace info (pid included) and each event at its
   original absolute time, and resolves location codes through the reader, so a
   single-domain v2 trace comes out byte for byte as it went in. Prints the number of
   events copied. *)

open Memtrace.Trace

let () =
  match Sys.argv with
  | [| _; input; output |] ->
    let reader = Reader.open_ ~filename:input in
    let info = Reader.info reader in
    let fd = Unix.openfile output Unix.[ O_CREAT; O_WRONLY; O_TRUNC ] 0o644 in
    let writer = Writer.create fd ~getpid:(fun () -> info.pid) info in
    let events = ref 0 in
    let locations code = Reader.lookup_location_code reader code in
    Reader.iter reader (fun time ev ->
        incr events;
        Writer.put_event writer ~decode_callstack_entry:locations
          (Timedelta.offset info.start_time time)
          ev);
    Reader.close reader;
    Writer.flush writer;
    Unix.close fd;
    Printf.printf "events=%d\n" !events
  | _ ->
    prerr_endline "usage: decode_encode IN OUT";
    exit 2

(* memtrace_json_023 TRACE: the REAL memtrace 0.2.3 reader (Debian's OCaml 4.13) printing
   the corpus's schema 2 memtrace stream, so that `memprof-oracle corpus check --impl
   'memtrace_json_023 {file}' --as memtrace-0.2.3` compares the oracle with the reference.

   What is the reader's and what is ours: Reader.open_/info/iter/lookup_location_code
   decide everything (acceptance, events, times, ids, backtraces, frames); this program
   only spells the values (memtrace_records.ml) and turns an exception into the end line's
   error. Packets the reader skips are reported by it on stderr only, so no
   `skipped_packet` records are printed (the reference modes of corpus check ignore them).
   0.2.3 reads v1/v2 only and has no domains: every event is on domain 0. *)

open Memtrace.Trace
open Memtrace_values

let decode filename =
  let reader = Reader.open_ ~filename in
  let i = Reader.info reader in
  let start_time = Timestamp.to_int64 i.start_time in
  Memtrace_records.print_header
    (Some
       { version = Memtrace_records.file_version filename; sample_rate = i.sample_rate;
         word_size = i.word_size; executable_name = i.executable_name; host_name = i.host_name;
         ocaml_runtime_params = i.ocaml_runtime_params; pid = i.pid; initial_domain = 0;
         start_time; context = i.context });
  let lookup code = frames_of (Reader.lookup_location_code reader (Obj.magic (code : int))) in
  Reader.iter reader (fun dt ev ->
      let time = Int64.add start_time (Timedelta.to_int64 dt) in
      match ev with
      | Event.Alloc a ->
        let codes k = (a.backtrace_buffer.(k) :> int) in
        Memtrace_records.print_new_locations ~lookup codes a.backtrace_length;
        Memtrace_records.print_alloc ~time ~domain:0 ~id:(a.obj_id :> int) ~length:a.length
          ~nsamples:a.nsamples ~source:(source_name a.source) ~common_prefix:a.common_prefix
          codes a.backtrace_length
      | Promote id -> Memtrace_records.print_lifetime "promote" ~time ~domain:0 ~id:(id :> int)
      | Collect id -> Memtrace_records.print_lifetime "collect" ~time ~domain:0 ~id:(id :> int));
  Reader.close reader

let () =
  match Sys.argv with
  | [| _; filename |] ->
    Schema_json.run ~before_error:Memtrace_records.header_if_missing (fun () -> decode filename)
  | _ ->
    prerr_endline "usage: memtrace_json_023 TRACE";
    exit 2

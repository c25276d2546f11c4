(* memtrace_json_head TRACE: the REAL memtrace HEAD reader (a88470c, compiled by OCaml 5.3)
   printing the corpus's schema 2 memtrace stream, for `memprof-oracle corpus check --impl
   'memtrace_json_head {file}' --as memtrace-head`.

   The same division of work as memtrace_json_023.ml: the reader decides, this program
   spells. HEAD reads v1 to v3; each event carries its domain (always the main domain,
   0, before v3) and the trace info its initial domain. *)

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
         ocaml_runtime_params = i.ocaml_runtime_params; pid = i.pid;
         initial_domain = (i.initial_domain :> int); start_time; context = i.context });
  let lookup code =
    frames_of (Reader.lookup_location_code reader (Location_code.Expert.of_int code))
  in
  Reader.iter reader (fun dt ev ->
      let time = Int64.add start_time (Timedelta.to_int64 dt) in
      match ev with
      | Event.Alloc a ->
        let codes k = (a.backtrace_buffer.(k) :> int) in
        Memtrace_records.print_new_locations ~lookup codes a.backtrace_length;
        Memtrace_records.print_alloc ~time ~domain:(a.domain :> int) ~id:(a.obj_id :> int)
          ~length:a.length ~nsamples:a.nsamples ~source:(source_name a.source)
          ~common_prefix:a.common_prefix codes a.backtrace_length
      | Promote (id, d) ->
        Memtrace_records.print_lifetime "promote" ~time ~domain:(d :> int) ~id:(id :> int)
      | Collect (id, d) ->
        Memtrace_records.print_lifetime "collect" ~time ~domain:(d :> int) ~id:(id :> int));
  Reader.close reader

let () =
  match Sys.argv with
  | [| _; filename |] ->
    Schema_json.run ~before_error:Memtrace_records.header_if_missing (fun () -> decode filename)
  | _ ->
    prerr_endline "usage: memtrace_json_head TRACE";
    exit 2

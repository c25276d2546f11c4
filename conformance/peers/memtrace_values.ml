(* The values both memtrace adapters take out of the real reader, spelled once: these two
   types (the allocation source and the location record) are the same in 0.2.3 and HEAD,
   so this file compiles against either library. *)

open Memtrace.Trace

let source_name = function
  | Allocation_source.Minor -> "minor"
  | Major -> "major"
  | External -> "external"

let frames_of (locs : Location.t list) =
  List.map
    (fun (l : Location.t) ->
      { Memtrace_records.filename = l.filename; line = l.line; start_char = l.start_char;
        end_char = l.end_char; defname = l.defname })
    locs

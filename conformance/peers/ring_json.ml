(* ring_json FILE: OCaml 5.3's own runtime_events consumer (otherlibs/runtime_events,
   create_cursor + read_poll) printing the corpus's schema 2 ring stream, for
   `memprof-oracle corpus check --impl 'ring_json {file}' --as ocaml-5.3`.

   The consumer only opens rings by directory and pid, so FILE is symlinked as
   <tmpdir>/1.events. One cursor is polled until a poll delivers nothing; every callback
   prints one record in delivery order. The consumer decides everything delivered (rings,
   timestamps, ids, values, lost words, user-event names and payloads); this program only
   labels ids with names, as the oracle does, from the release in the file name
   (`*.ocaml-5.N.events`, anything else 5.3), "unknown" past that release's tables.

   User events: the consumer types unit/int/span events it has never heard of by itself,
   but silently drops custom events whose name the reading program did not register. So a
   first, silent pass lets it register every non-custom name it meets; every other name
   of the file's name table is then registered as a custom event whose payload is kept
   as raw bytes, and the second pass, with a fresh cursor, prints everything. (A name used
   with two types crashes OCaml 5.3's consumer: a known bug, declared, not worked around.) *)

open Runtime_events

(* The release's names, as core/ring/event_names.cc lists them: phases with the release
   that introduced each (5.3 inserted its memprof phases mid-list, so ids depend on the
   release), counters only ever appended. *)
let phases =
  [ ("explicit_gc_set", 0); ("explicit_gc_stat", 0); ("explicit_gc_minor", 0);
    ("explicit_gc_major", 0); ("explicit_gc_full_major", 0); ("explicit_gc_compact", 0);
    ("major", 0); ("major_sweep", 0); ("major_mark_roots", 0); ("major_memprof_roots", 3);
    ("major_mark", 0); ("minor", 0); ("minor_local_roots", 0); ("minor_memprof_roots", 3);
    ("minor_memprof_clean", 3); ("minor_finalized", 0); ("explicit_gc_major_slice", 0);
    ("finalise_update_first", 0); ("finalise_update_last", 0); ("interrupt_remote", 0);
    ("major_ephe_mark", 0); ("major_ephe_sweep", 0); ("major_finish_marking", 0);
    ("major_gc_cycle_domains", 0); ("major_gc_phase_change", 0); ("major_gc_stw", 0);
    ("major_mark_opportunistic", 0); ("major_slice", 0); ("major_finish_cycle", 0);
    ("minor_clear", 0); ("minor_finalizers_oldify", 0); ("minor_global_roots", 0);
    ("minor_leave_barrier", 0); ("stw_api_barrier", 0); ("stw_handler", 0); ("stw_leader", 0);
    ("major_finish_sweeping", 0); ("major_memprof_clean", 3); ("minor_finalizers_admin", 0);
    ("minor_remembered_set", 0); ("minor_remembered_set_promote", 0);
    ("minor_local_roots_promote", 0); ("domain_condition_wait", 0);
    ("domain_resize_heap_reservation", 0); ("compaction", 2); ("compaction_evacuate", 2);
    ("compaction_forward", 2); ("compaction_release", 2); ("empty_minor", 4) ]

let counters =
  [| "force_minor_alloc_small"; "force_minor_make_vect"; "force_minor_set_minor_heap_size";
     "force_minor_memprof"; "minor_promoted"; "minor_allocated"; "request_major_alloc_shr";
     "request_major_adjust_gc_speed"; "request_minor_realloc_ref_table";
     "request_minor_realloc_ephe_ref_table"; "request_minor_realloc_custom_table";
     "major_heap_pool_words"; "major_heap_pool_live_words"; "major_heap_large_words";
     "major_heap_pool_frag_words"; "major_heap_pool_live_blocks"; "major_heap_large_blocks";
     "major_heap_words"; "major_allocated_words"; "major_allocated_work";
     "major_dependent_work"; "major_extra_work"; "major_work_counter"; "major_alloc_counter";
     "major_slice_target"; "major_slice_budget"; "minor_allocated_words";
     "minor_promoted_words" |]

let lifecycles =
  [| "ring_start"; "ring_stop"; "ring_pause"; "ring_resume"; "fork_parent"; "fork_child";
     "domain_spawn"; "domain_terminate" |]

(* The minor release (0..5) named by a `*.ocaml-5.N.events` file name, else 3. *)
let release_of_file path =
  let base = Filename.basename path in
  let marker = ".ocaml-5." in
  if not (Filename.check_suffix base ".events") then 3
  else
    let stem = Filename.chop_suffix base ".events" in
    let m = String.length marker and n = String.length stem in
    let rec find i =
      if i < 0 then 3
      else if i + m <= n && String.sub stem i m = marker then
        if i + m < n && stem.[i + m] >= '0' && stem.[i + m] <= '5'
           && (i + m + 1 = n || String.contains ".+~" stem.[i + m + 1])
        then Char.code stem.[i + m] - Char.code '0'
        else 3
      else find (i - 1)
    in
    find (n - m)

let phase_names release =
  List.filter_map (fun (name, since) -> if since <= release then Some name else None) phases
  |> Array.of_list

let counter_count = function 0 -> 11 | 1 | 2 -> 17 | 3 | 4 -> 26 | _ -> 28

let name_in table count id = if id >= 0 && id < count then table.(id) else "unknown"

(* The names in the file's user-event table (RUNTIME_EVENTS_CUSTOM_EVENT_ID_LENGTH = 128
   bytes per slot at metadata.custom_events_offset, 8192 slots); only used to know which
   names to register as custom events, never to decode an event. *)
let table_names path =
  let ic = open_in_bin path in
  Fun.protect ~finally:(fun () -> close_in_noerr ic) (fun () ->
      let size = in_channel_length ic in
      if size < 64 then []
      else (
        seek_in ic 56;
        let off = Int64.to_int (String.get_int64_le (really_input_string ic 8) 0) in
        let rec slots i acc =
          if i >= 8192 || off < 0 || off + ((i + 1) * 128) > size then List.rev acc
          else (
            seek_in ic (off + (i * 128));
            let slot = really_input_string ic 128 in
            let name =
              match String.index_opt slot '\000' with Some k -> String.sub slot 0 k | None -> slot
            in
            slots (i + 1) (if name = "" || String.length name > 127 then acc else (i, name) :: acc))
        in
        slots 0 []))

(* The custom type the adapter gives every custom event: the payload's bytes as the
   consumer cut them (it is never encoded: this program writes no events). *)
let hex_payload =
  Type.register ~encode:(fun _ _ -> 0) ~decode:(fun buf n -> Bytes.sub_string buf 0 n)

type User.tag += Adapter_custom

let poll_all cursor callbacks =
  let rec loop () = if read_poll cursor callbacks None > 0 then loop () in
  loop ()

let with_cursor path f =
  let dir = Filename.temp_dir "ring_json" "" in
  let link = Filename.concat dir "1.events" in
  let target = if Filename.is_relative path then Filename.concat (Sys.getcwd ()) path else path in
  Fun.protect
    ~finally:(fun () ->
      (try Sys.remove link with Sys_error _ -> ());
      try Sys.rmdir dir with Sys_error _ -> ())
    (fun () ->
      Unix.symlink target link;
      let cursor = create_cursor (Some (dir, 1)) in
      Fun.protect ~finally:(fun () -> free_cursor cursor) (fun () -> f cursor))

let decode path =
  let release = release_of_file path in
  let open Schema_json in
  header (Printf.sprintf "\"format\":\"ring\",\"ocaml_version\":\"5.%d\"" release);
  (* Pass 1: silent, lets the consumer register the names of unit/int/span events. *)
  let seen = Hashtbl.create 16 in
  let note _ _ ev _ = Hashtbl.replace seen (User.name ev) () in
  let silent =
    Callbacks.create ()
    |> Callbacks.add_user_event Type.unit note
    |> Callbacks.add_user_event Type.int note
    |> Callbacks.add_user_event Type.span note
  in
  (try with_cursor path (fun c -> poll_all c silent) with _ -> ());
  let names = table_names path in
  let register_custom name =
    if not (Hashtbl.mem seen name) then ignore (User.register name Adapter_custom hex_payload)
  in
  List.iter register_custom (List.sort_uniq compare (List.map snd names));
  let phase_table = phase_names release in
  let phase id = name_in phase_table (Array.length phase_table) id in
  let counter id = name_in counters (counter_count release) id in
  let ts t = Timestamp.to_int64 t in
  (* The consumer hands callbacks the event, not its slot in the file; the slot is found
     again by name (the first slot holding it). *)
  let slot_of_name = Hashtbl.create 16 in
  let add_slot (i, name) =
    if not (Hashtbl.mem slot_of_name name) then Hashtbl.add slot_of_name name i
  in
  List.iter add_slot names;
  (* Every timed record starts with ring, ts, id and name; [rest] is the members after.
     Timestamps are the C consumer's uint64, which OCaml hands over as the same 64 bits in
     an int64. *)
  let timed kind d t id name rest =
    record kind
      (Printf.sprintf "\"ring\":%d,\"ts\":%Lu,\"id\":%s,\"name\":%s%s" d (ts t) id name rest)
  in
  let runtime kind d t id name rest = timed kind d t (string_of_int id) (quoted name) rest in
  let user kind d t ev rest =
    let name = User.name ev in
    let id = Option.fold ~none:"null" ~some:string_of_int (Hashtbl.find_opt slot_of_name name) in
    timed kind d t id (text name) rest
  in
  let callbacks =
    Callbacks.create
      ~runtime_begin:(fun d t ph ->
        let id : int = Obj.magic ph in
        runtime "begin" d t id (phase id) "")
      ~runtime_end:(fun d t ph ->
        let id : int = Obj.magic ph in
        runtime "end" d t id (phase id) "")
      ~runtime_counter:(fun d t c v ->
        let id : int = Obj.magic c in
        runtime "counter" d t id (counter id) (Printf.sprintf ",\"value\":%d" v))
      ~alloc:(fun d t buckets ->
        record "alloc"
          (Printf.sprintf "\"ring\":%d,\"ts\":%Lu,\"buckets\":[%s]" d (ts t)
             (String.concat "," (Array.to_list (Array.map string_of_int buckets)))))
      ~lifecycle:(fun d t l data ->
        let id : int = Obj.magic l in
        (* The consumer passes None for a zero payload; the schema always has the integer. *)
        runtime "lifecycle" d t id
          (name_in lifecycles (Array.length lifecycles) id)
          (Printf.sprintf ",\"data\":%d" (Option.value data ~default:0)))
      ~lost_events:(fun d n -> record "lost_events" (Printf.sprintf "\"ring\":%d,\"words\":%d" d n))
      ()
    |> Callbacks.add_user_event Type.unit (fun d t ev () -> user "user_unit" d t ev "")
    |> Callbacks.add_user_event Type.int (fun d t ev v ->
           user "user_int" d t ev (Printf.sprintf ",\"value\":%d" v))
    |> Callbacks.add_user_event Type.span (fun d t ev v ->
           let kind = match v with Type.Begin -> "user_span_begin" | Type.End -> "user_span_end" in
           user kind d t ev "")
    |> Callbacks.add_user_event hex_payload (fun d t ev payload ->
           user "user_custom" d t ev
             (Printf.sprintf ",\"payload_hex\":\"%s\"" (hex_of_string payload)))
  in
  with_cursor path (fun c -> poll_all c callbacks)

let () =
  match Sys.argv with
  | [| _; path |] -> Schema_json.run (fun () -> decode path)
  | _ ->
    prerr_endline "usage: ring_json FILE.events";
    exit 2

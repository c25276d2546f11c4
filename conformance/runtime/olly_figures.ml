(* olly gc-stats' figures of a ring file, computed with OCaml 5.3's own consumer
   (+runtime_events) by the rules of tarides/runtime_events_tools' gc-stats: the
   reference `events stats` is compared with (olly_stats_real_test.sh). Prints
   "KEY VALUE" lines.

   Usage: olly_figures DIR PID *)

let max_domains = 128

let () =
  let dir = Sys.argv.(1) and pid = int_of_string Sys.argv.(2) in
  let cursor = Runtime_events.create_cursor (Some (dir, pid)) in
  let ns t = Int64.to_int (Runtime_events.Timestamp.to_int64 t) in
  let wall_start = ref 0 and wall_stop = ref 0 in
  let elapsed = Array.make max_domains 0 and gc = Array.make max_domains 0 in
  let seen = Array.make max_domains false in
  let minor_words = Array.make max_domains 0 in
  let promoted_words = Array.make max_domains 0 in
  let major_words = Array.make max_domains 0 in
  let open_gc = Hashtbl.create 8 in
  let minors = ref 0 and majors = ref 0 in
  let pauses = ref [] in
  (* A domain's time: from ring_start or domain_spawn to ring_stop or domain_terminate. *)
  let lifecycle d t ev _ =
    seen.(d) <- true;
    let t = ns t in
    match ev with
    | Runtime_events.EV_RING_START ->
        wall_start := t;
        elapsed.(d) <- t
    | EV_RING_STOP ->
        wall_stop := t;
        elapsed.(d) <- t - elapsed.(d)
    | EV_DOMAIN_SPAWN -> elapsed.(d) <- t
    | EV_DOMAIN_TERMINATE -> elapsed.(d) <- t - elapsed.(d)
    | _ -> ()
  in
  (* GC pauses: the outermost major, stw_leader or interrupt_remote span. *)
  let counts_as_gc = function
    | Runtime_events.EV_MAJOR | EV_STW_LEADER | EV_INTERRUPT_REMOTE -> true
    | _ -> false
  in
  let runtime_begin d t phase =
    seen.(d) <- true;
    if d = 0 && phase = Runtime_events.EV_MINOR then incr minors;
    if d = 0 && phase = Runtime_events.EV_MAJOR_GC_STW then incr majors;
    if counts_as_gc phase && not (Hashtbl.mem open_gc d) then
      Hashtbl.replace open_gc d (phase, ns t)
  in
  let runtime_end d t phase =
    seen.(d) <- true;
    match Hashtbl.find_opt open_gc d with
    | Some (p, start) when p = phase ->
        Hashtbl.remove open_gc d;
        let pause = ns t - start in
        gc.(d) <- gc.(d) + pause;
        pauses := pause :: !pauses
    | _ -> ()
  in
  (* OCaml 5.3: minor counters in bytes, major in words. *)
  let runtime_counter d _ counter v =
    seen.(d) <- true;
    match counter with
    | Runtime_events.EV_C_MINOR_ALLOCATED -> minor_words.(d) <- minor_words.(d) + (v / 8)
    | EV_C_MINOR_PROMOTED -> promoted_words.(d) <- promoted_words.(d) + (v / 8)
    | EV_C_MAJOR_ALLOCATED_WORDS -> major_words.(d) <- major_words.(d) + v
    | _ -> ()
  in
  let callbacks =
    Runtime_events.Callbacks.create ~runtime_begin ~runtime_end ~runtime_counter ~lifecycle ()
  in
  while Runtime_events.read_poll cursor callbacks None > 0 do () done;
  Printf.printf "wall_ns %d\nminor %d\nmajor %d\n" (!wall_stop - !wall_start) !minors !majors;
  Array.iteri
    (fun d s ->
      if s then
        Printf.printf "domain%d.time_ns %d\ndomain%d.gc_ns %d\ndomain%d.minor %d\ndomain%d.promoted %d\n" d
          elapsed.(d) d gc.(d) d minor_words.(d) d promoted_words.(d))
    seen;
  let sorted = Array.of_list !pauses in
  Array.sort compare sorted;
  let n = Array.length sorted in
  let rank p = sorted.(max 1 (int_of_float (Float.ceil (p /. 100. *. float_of_int n))) - 1) in
  Printf.printf "pauses %d\n" n;
  if n > 0 then
    Printf.printf "p50_ns %d\np90_ns %d\np99_ns %d\nmax_ns %d\n" (rank 50.) (rank 90.) (rank 99.)
      (rank 100.)

(* ring_text FILE: a release's own runtime_events consumer (create_cursor + read_poll,
   as that release ships it) printing what `memprof-oracle events dump FILE` prints: one
   line per callback, in delivery order, then "# read_poll calls=N total_events=M", where
   the polls go on until one returns 0 and M adds up what each returned. Compiled against
   every OCaml 5 release by run_releases.sh, with user_events_51.ml (5.1 on: the user
   events the recording programs write) or user_events_50.ml (5.0 has none).

   Names are the release's own (runtime_phase_name etc.): the oracle must name ids as the
   release does. A user event's tag is printed UNK, as the oracle prints a tag it was not
   given. The consumer opens rings by directory and pid only, so FILE is symlinked as
   <tmpdir>/1.events. *)

open Runtime_events

let out = Printf.printf

let callbacks () =
  let ts t = Timestamp.to_int64 t in
  Callbacks.create
    ~runtime_begin:(fun d t ph ->
      out "%d %Ld begin %s #%d\n" d (ts t) (runtime_phase_name ph) (Obj.magic ph : int))
    ~runtime_end:(fun d t ph ->
      out "%d %Ld end %s #%d\n" d (ts t) (runtime_phase_name ph) (Obj.magic ph : int))
    ~runtime_counter:(fun d t c v ->
      out "%d %Ld counter %s #%d %d\n" d (ts t) (runtime_counter_name c) (Obj.magic c : int) v)
    ~alloc:(fun d t buckets ->
      let words = Array.to_list (Array.map string_of_int buckets) in
      out "%d %Ld alloc [%s]\n" d (ts t) (String.concat ";" words))
    ~lifecycle:(fun d t l data ->
      let data = match data with None -> "none" | Some x -> string_of_int x in
      out "%d %Ld lifecycle %s #%d %s\n" d (ts t) (lifecycle_name l) (Obj.magic l : int) data)
    ~lost_events:(fun d words -> out "%d lost_events %d\n" d words)
    ()

(* 5.0.0's read_poll returns Int_val(count) as a value: an int of count >> 2, but an even
   machine word (no valid int) when count >> 1 is even, and adding two such words loses
   one. Printing untags it as every untagging primitive does; reading the digits back
   gives a valid int. For a valid int this is the identity. *)
let normalise n = int_of_string (string_of_int n)

let () =
  let path =
    match Sys.argv with
    | [| _; path |] -> path
    | _ ->
      prerr_endline "usage: ring_text FILE.events";
      exit 2
  in
  let dir = Filename.temp_file "ring_text" "" in
  Sys.remove dir;
  Sys.mkdir dir 0o700;
  let link = Filename.concat dir "1.events" in
  let target = if Filename.is_relative path then Filename.concat (Sys.getcwd ()) path else path in
  Fun.protect
    ~finally:(fun () ->
      (try Sys.remove link with Sys_error _ -> ());
      try Sys.rmdir dir with Sys_error _ -> ())
    (fun () ->
      Unix.symlink target link;
      let cursor = create_cursor (Some (dir, 1)) in
      let cb = User_events.add (callbacks ()) in
      let rec poll calls total =
        let n = normalise (read_poll cursor cb None) in
        if n > 0 then poll (calls + 1) (total + n) else (calls + 1, total + n)
      in
      let calls, total = poll 0 0 in
      out "# read_poll calls=%d total_events=%d\n" calls total;
      free_cursor cursor)

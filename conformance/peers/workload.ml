(* Workloads traced by the real memtrace 0.2.3 writer (OCaml 4.13's Gc.Memprof), to give
   the side-by-side benchmark traces like the ones issue 14 quotes, written by the real
   tools rather than by this project:

     MEMTRACE=out.ctf MEMTRACE_RATE=1e-2 workload lists_maps|hashtbl_strings ROUNDS

   lists_maps: integer lists mapped, filtered and sorted, then folded into a Map and a Set
   of their decimal strings; some results are kept alive across rounds so that the trace
   has promotions and late collections as well as young deaths.
   hashtbl_strings: strings built by concatenation and formatting, used as keys of a
   Hashtbl that is grown, looked up, partly cleared and resized.

   Prints a checksum of the work so that it cannot be optimised away. *)

module Int_map = Map.Make (Int)
module String_set = Set.Make (String)

let kept = ref []

let lists_maps_round r =
  let numbers = List.init 2000 (fun i -> (i * 7919) + r) in
  let scaled = List.map (fun x -> x * 3) numbers in
  let odd = List.filter (fun x -> x land 1 = 1) scaled in
  let map = List.fold_left (fun m x -> Int_map.add x (string_of_int x) m) Int_map.empty odd in
  let set = Int_map.fold (fun _ s acc -> String_set.add s acc) map String_set.empty in
  let sorted = List.sort (fun a b -> compare b a) scaled in
  (* Keep every fifth round's results until the next multiple of 25. *)
  if r mod 5 = 0 then kept := (map, set) :: !kept;
  if r mod 25 = 0 then kept := [];
  Int_map.cardinal map + String_set.cardinal set + List.hd sorted

let table = Hashtbl.create 16

let hashtbl_strings_round r =
  let sum = ref 0 in
  for i = 0 to 499 do
    let key = "k" ^ string_of_int ((i * 31) + (r mod 97)) ^ "/" ^ string_of_int (i land 15) in
    let value = Printf.sprintf "%s=%d:%s" key (i * r) (String.make (i land 7) 'x') in
    Hashtbl.replace table key value;
    match Hashtbl.find_opt table ("k" ^ string_of_int i) with
    | Some v -> sum := !sum + String.length v
    | None -> sum := !sum + 1
  done;
  (* Drop a third of the keys now and then so that entries die at different ages. *)
  if r mod 7 = 0 then
    Hashtbl.filter_map_inplace (fun k v -> if Hashtbl.hash k mod 3 = 0 then None else Some v) table;
  if r mod 50 = 0 then Hashtbl.reset table;
  !sum + Hashtbl.length table

let () =
  match Sys.argv with
  | [| _; kind; rounds |] ->
    let round =
      match kind with
      | "lists_maps" -> lists_maps_round
      | "hashtbl_strings" -> hashtbl_strings_round
      | _ ->
        prerr_endline "workload: unknown kind (lists_maps or hashtbl_strings)";
        exit 2
    in
    Memtrace.trace_if_requested ~context:kind ();
    let total = ref 0 in
    for r = 1 to int_of_string rounds do
      total := !total + round r
    done;
    Printf.printf "%s checksum=%d kept=%d\n" kind !total (List.length !kept)
  | _ ->
    prerr_endline "usage: workload lists_maps|hashtbl_strings ROUNDS";
    exit 2

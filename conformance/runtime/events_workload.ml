(* A small OCaml 5 program for `memprof-oracle events record`: allocates lists in
   ROUNDS rounds, with a full major collection every tenth round and, with DOMAINS > 1,
   the same work in extra domains, so that its ring holds minor and major collections,
   counters and more than one domain. Prints a checksum so that nothing is optimised
   away, and exits with status EXIT.

   Usage: events_workload ROUNDS DOMAINS EXIT *)

let work rounds =
  let sum = ref 0 in
  for r = 1 to rounds do
    let l = List.init 20_000 (fun i -> i + r) in
    sum := !sum + List.fold_left ( + ) 0 l;
    if r mod 10 = 0 then Gc.full_major ()
  done;
  !sum

let () =
  let rounds = int_of_string Sys.argv.(1) in
  let domains = int_of_string Sys.argv.(2) in
  let code = int_of_string Sys.argv.(3) in
  let others = List.init (domains - 1) (fun _ -> Domain.spawn (fun () -> work rounds)) in
  let total = List.fold_left (fun acc d -> acc + Domain.join d) (work rounds) others in
  Printf.printf "checksum %d\n" total;
  exit code

(* Writes user events of every type (OCaml 5.1 on) from one or more domains, between
   allocations and minor collections, so that its ring holds user and runtime events
   interleaved in several rings.

   Usage: user_workload ROUNDS DOMAINS *)
open Runtime_events

type User.tag += Mpo

let text_type =
  Type.register
    ~encode:(fun buf s ->
      Bytes.blit_string s 0 buf 0 (String.length s);
      String.length s)
    ~decode:(fun buf n -> Bytes.sub_string buf 0 n)

let unit_ev = User.register "mpo.unit" Mpo Type.unit
let int_ev = User.register "mpo.int" Mpo Type.int
let span_ev = User.register "mpo.span" Mpo Type.span
let text_ev = User.register "mpo.text" Mpo text_type

let work rounds =
  let sum = ref 0 in
  for r = 1 to rounds do
    User.write span_ev Type.Begin;
    let l = List.init 5_000 (fun i -> i + r) in
    sum := !sum + List.fold_left ( + ) 0 l;
    User.write int_ev (r * 1000);
    User.write unit_ev ();
    User.write text_ev (Printf.sprintf "round %d \"quoted\"\n" r);
    if r mod 5 = 0 then Gc.minor ();
    User.write span_ev Type.End
  done;
  !sum

let () =
  let rounds = int_of_string Sys.argv.(1) in
  let domains = int_of_string Sys.argv.(2) in
  let others = List.init (domains - 1) (fun _ -> Domain.spawn (fun () -> work rounds)) in
  let total = List.fold_left (fun acc d -> acc + Domain.join d) (work rounds) others in
  Printf.printf "checksum %d\n" total

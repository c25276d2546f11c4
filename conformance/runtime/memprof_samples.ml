(* Real Gc.Memprof over a deterministic allocation sequence, for comparison with the
   project's sampler and engine (conformance/runtime/memprof_replay.cc).

   Usage: memprof_samples LAMBDA COUNT SEED

   The program builds COUNT allocations from SEED (its own small LCG, so that the
   sequence does not depend on OCaml's Random), prints them, profiles them with
   Gc.Memprof.start ~sampling_rate:LAMBDA, and prints every sample with the index of the
   allocation it fell on. The profile starts on a freshly emptied minor heap, and nothing
   but the listed allocations happens while it runs (the callbacks store into arrays made
   beforehand and return None), so that the PRNG draws line up with a replay. Kinds:
     c   Array.make N 0 with N <= 256: caml_alloc_small from C
     m   Array.make N 0 with N > 256: caml_alloc_shr (major heap)
     o   a single block of N words allocated by OCaml code
     p   Some (x, x): one combined allocation of a 2-word tuple and a 1-word option
     g   Gc.minor (): no allocation, a minor collection at a known point (SIZE 0)
   Output lines:
     alloc I KIND SIZE
     sample I minor|major SIZE N_SAMPLES SOURCE
     gc minor_collections=N explicit_minor=N major_collections=N samples=N overflow=B
   The final line counts the collections that happened while profiling. A replay is exact
   only if every minor collection was an explicit one (kind g): the runtime redraws
   memprof's minor-heap trigger at each, and when the heap fills up depends on what the
   runtime itself allocates around the callbacks, which a replay of the sequence does not
   model. Run with a minor heap large enough for the whole sequence, and a space overhead
   that keeps the major slices of Gc.minor from ending a major cycle (whose end empties
   the minor heap too): OCAMLRUNPARAM=s=4M,o=1000000 for 20000 allocations. *)

[@@@warning "-32"]

let lcg = ref 0

(* 31-bit linear congruential generator (constants from Numerical Recipes), upper bits. *)
let next_int bound =
  lcg := ((!lcg * 1664525) + 1013904223) land 0xFFFFFFFF;
  (!lcg lsr 8) mod bound

(* Each is one allocation from OCaml code: never inlined, so none is combined with
   another. *)
let[@inline never] o1 x = Sys.opaque_identity (Some x)
let[@inline never] o2 x = Sys.opaque_identity (x, x)
let[@inline never] o3 x = Sys.opaque_identity (x, x, x)
let[@inline never] o4 x = Sys.opaque_identity (x, x, x, x)
let[@inline never] o6 x = Sys.opaque_identity (x, x, x, x, x, x)
let[@inline never] p2 x = Sys.opaque_identity (Some (x, x))

let () =
  if Array.length Sys.argv <> 4 then begin
    prerr_endline "usage: memprof_samples LAMBDA COUNT SEED";
    exit 2
  end;
  let lambda = float_of_string Sys.argv.(1) in
  let count = int_of_string Sys.argv.(2) in
  lcg := int_of_string Sys.argv.(3);
  (* kind codes: 0 c, 1 m, 2 o, 3 p, 4 g *)
  let kinds = Array.make count 0 and sizes = Array.make count 0 in
  for i = 0 to count - 1 do
    let r = next_int 100 in
    if r < 55 then begin
      kinds.(i) <- 0;
      sizes.(i) <- 1 + next_int 256
    end else if r < 65 then begin
      kinds.(i) <- 1;
      sizes.(i) <- 257 + next_int 200
    end else if r < 91 then begin
      kinds.(i) <- 2;
      sizes.(i) <- [| 1; 2; 3; 4; 6 |].(next_int 5)
    end else if r < 92 then begin
      kinds.(i) <- 4;
      sizes.(i) <- 0
    end else begin
      kinds.(i) <- 3;
      sizes.(i) <- 3
    end
  done;
  let cap = 4 * count + 16 in
  let s_index = Array.make cap 0
  and s_major = Array.make cap 0
  and s_size = Array.make cap 0
  and s_n = Array.make cap 0
  and s_src = Array.make cap 0 in
  let n = ref 0 and cur = ref (-1) and overflow = ref false in
  let record major (info : Gc.Memprof.allocation) =
    if !n < cap then begin
      s_index.(!n) <- !cur;
      s_major.(!n) <- major;
      s_size.(!n) <- info.size;
      s_n.(!n) <- info.n_samples;
      s_src.(!n) <-
        (match info.source with Normal -> 0 | Marshal -> 1 | Custom -> 2);
      incr n
    end else overflow := true;
    None
  in
  let tracker =
    { Gc.Memprof.null_tracker with
      alloc_minor = (fun info -> record 0 info);
      alloc_major = (fun info -> record 1 info) }
  in
  Gc.full_major ();
  let minor0 = (Gc.quick_stat ()).minor_collections in
  let major0 = (Gc.quick_stat ()).major_collections in
  let _profile = Gc.Memprof.start ~sampling_rate:lambda ~callstack_size:0 tracker in
  for i = 0 to count - 1 do
    cur := i;
    let size = sizes.(i) in
    match kinds.(i) with
    | 0 | 1 -> ignore (Sys.opaque_identity (Array.make size 0))
    | 2 -> (
        match size with
        | 1 -> ignore (o1 i)
        | 2 -> ignore (o2 i)
        | 3 -> ignore (o3 i)
        | 4 -> ignore (o4 i)
        | _ -> ignore (o6 i))
    | 3 -> ignore (p2 i)
    | _ -> Gc.minor ()
  done;
  cur := count;
  Gc.Memprof.stop ();
  let minor1 = (Gc.quick_stat ()).minor_collections in
  let major1 = (Gc.quick_stat ()).major_collections in
  let kind_name = [| "c"; "m"; "o"; "p"; "g" |] in
  for i = 0 to count - 1 do
    Printf.printf "alloc %d %s %d\n" i kind_name.(kinds.(i)) sizes.(i)
  done;
  let src_name = [| "normal"; "marshal"; "custom" |] in
  for k = 0 to !n - 1 do
    Printf.printf "sample %d %s %d %d %s\n" s_index.(k)
      (if s_major.(k) = 1 then "major" else "minor")
      s_size.(k) s_n.(k) src_name.(s_src.(k))
  done;
  let explicit = Array.fold_left (fun acc k -> if k = 4 then acc + 1 else acc) 0 kinds in
  Printf.printf
    "gc minor_collections=%d explicit_minor=%d major_collections=%d samples=%d overflow=%b\n"
    (minor1 - minor0) explicit (major1 - major0) !n !overflow

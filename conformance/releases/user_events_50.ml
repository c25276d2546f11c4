(* OCaml 5.0 has no user events: the callbacks are the runtime's only. *)
let add cb = cb

(* The user events user_workload.ml writes (OCaml 5.1 on), printed as `events dump` prints
   them. Unit, int and span events the consumer types by itself; the custom event is
   delivered only under a name registered with its type, so that name is registered here
   as user_workload.ml registers it. *)
open Runtime_events

type User.tag += Text

let text_type =
  Type.register
    ~encode:(fun buf s ->
      Bytes.blit_string s 0 buf 0 (String.length s);
      String.length s)
    ~decode:(fun buf n -> Bytes.sub_string buf 0 n)

let () = ignore (User.register "mpo.text" Text text_type : string User.t)

let add cb =
  let out = Printf.printf in
  let ts t = Timestamp.to_int64 t in
  cb
  |> Callbacks.add_user_event Type.unit (fun d t ev () ->
         out "%d %Ld user_unit %s UNK\n" d (ts t) (User.name ev))
  |> Callbacks.add_user_event Type.int (fun d t ev v ->
         out "%d %Ld user_int %s UNK %d\n" d (ts t) (User.name ev) v)
  |> Callbacks.add_user_event Type.span (fun d t ev v ->
         let edge = match v with Type.Begin -> "begin" | Type.End -> "end" in
         out "%d %Ld user_span %s UNK %s\n" d (ts t) (User.name ev) edge)
  |> Callbacks.add_user_event text_type (fun d t ev s ->
         out "%d %Ld user_custom %s UNK %S\n" d (ts t) (User.name ev) s)

(* Printing of the corpus's schema 2 JSON Lines (core/corpus/SCHEMA.md), shared by the
   adapters that make a real reader print what `memprof-oracle corpus decode` prints.

   Written against the standard library that both OCaml 4.13 (memtrace 0.2.3) and OCaml
   5.3 (memtrace HEAD, runtime_events) ship, so the same file is compiled into every
   adapter. Only the values come from the real readers; this module just spells them.

   Every record goes through [record], which counts it for the end line. Output is buffered
   by stdout's channel and flushed once at the end (or when an error ends the stream), so a
   large trace costs one write per channel buffer, not one per line. *)

let records = ref 0

(* The oracle writes strings that are not valid UTF-8 as {"hex":...} rather than
   re-encoding them, so the adapters must apply exactly the same validity rule: no
   overlong forms, no surrogates, nothing above U+10FFFF. *)
let valid_utf8 s =
  let n = String.length s in
  let byte i = Char.code (String.unsafe_get s i) in
  let cont i lo hi = i < n && byte i >= lo && byte i <= hi in
  let rec go i =
    if i >= n then true
    else
      let c = byte i in
      if c < 0x80 then go (i + 1)
      else if c >= 0xc2 && c <= 0xdf then cont (i + 1) 0x80 0xbf && go (i + 2)
      else if c >= 0xe0 && c <= 0xef then
        let lo = if c = 0xe0 then 0xa0 else 0x80 in
        let hi = if c = 0xed then 0x9f else 0xbf in
        cont (i + 1) lo hi && cont (i + 2) 0x80 0xbf && go (i + 3)
      else if c >= 0xf0 && c <= 0xf4 then
        let lo = if c = 0xf0 then 0x90 else 0x80 in
        let hi = if c = 0xf4 then 0x8f else 0xbf in
        cont (i + 1) lo hi && cont (i + 2) 0x80 0xbf && cont (i + 3) 0x80 0xbf && go (i + 4)
      else false
  in
  go 0

let hex_of_string s =
  let b = Buffer.create (2 * String.length s) in
  String.iter (fun c -> Buffer.add_string b (Printf.sprintf "%02x" (Char.code c))) s;
  Buffer.contents b

(* A JSON string literal; control characters and the two JSON metacharacters escaped. *)
let quoted s =
  let b = Buffer.create (String.length s + 2) in
  Buffer.add_char b '"';
  String.iter
    (fun c ->
      match c with
      | '"' -> Buffer.add_string b "\\\""
      | '\\' -> Buffer.add_string b "\\\\"
      | '\n' -> Buffer.add_string b "\\n"
      | '\r' -> Buffer.add_string b "\\r"
      | '\t' -> Buffer.add_string b "\\t"
      | c when Char.code c < 0x20 -> Buffer.add_string b (Printf.sprintf "\\u%04x" (Char.code c))
      | c -> Buffer.add_char b c)
    s;
  Buffer.add_char b '"';
  Buffer.contents b

(* A string that came from the input: marked as hex when it is not valid UTF-8. *)
let text s = if valid_utf8 s then quoted s else Printf.sprintf "{\"hex\":\"%s\"}" (hex_of_string s)

(* Shortest decimal that reads back to the same double; JSON has no NaN or infinity. *)
let float_text f =
  if not (Float.is_finite f) then "null"
  else
    let rec shortest p =
      let s = Printf.sprintf "%.*g" p f in
      if p >= 17 || float_of_string s = f then s else shortest (p + 1)
    in
    shortest 1

(* One record line: {"kind":KIND,MEMBERS} where MEMBERS is already JSON text. *)
let record kind members =
  incr records;
  print_string "{\"kind\":\"";
  print_string kind;
  print_char '"';
  if members <> "" then (
    print_char ',';
    print_string members);
  print_string "}\n"

let header members = print_string ("{\"schema\":2," ^ members ^ "}\n")

(* The end line. A rejection names the exception the real reader raised as its check:
   corpus check in a reference mode compares only whether there is an error. *)
let finish error =
  let err =
    match error with
    | None -> "null"
    | Some msg -> Printf.sprintf "{\"code\":\"rejected\",\"check\":%s,\"offset\":null}" (text msg)
  in
  Printf.printf "{\"kind\":\"end_of_stream\",\"error\":%s,\"records\":%d}\n%!" err !records;
  exit (if error = None then 0 else 1)

(* Runs an adapter's body and ends the stream whatever happens: any exception the real
   reader raises (Stack_overflow and Out_of_memory included, which OCaml raises as ordinary
   exceptions on this platform) becomes the end line's error. [before_error] lets the
   memtrace adapters print a header that the exception kept them from printing. *)
let run ?(before_error = fun () -> ()) body =
  match body () with
  | () -> finish None
  | exception Out_of_memory -> before_error (); finish (Some "Out_of_memory")
  | exception Stack_overflow -> before_error (); finish (Some "Stack_overflow")
  | exception e -> before_error (); finish (Some (Printexc.to_string e))

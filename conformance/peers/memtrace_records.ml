(* The memtrace records of schema 2 (core/corpus/SCHEMA.md, "memtrace"), from the plain
   values an adapter takes out of a real memtrace reader. Shared by the memtrace 0.2.3 and
   HEAD adapters, whose libraries have different types for the same fields. *)

open Schema_json

(* The format version is not part of memtrace's Info.t in either release; it is the u16 at
   byte 28 of the first packet header, which the real reader has already validated by the
   time anything is printed. *)
let file_version filename =
  let ic = open_in_bin filename in
  Fun.protect
    ~finally:(fun () -> close_in_noerr ic)
    (fun () ->
      if in_channel_length ic < 30 then None
      else (
        seek_in ic 28;
        let lo = input_byte ic in
        let hi = input_byte ic in
        Some (lo lor (hi lsl 8))))

type info = {
  version : int option;
  sample_rate : float;
  word_size : int;
  executable_name : string;
  host_name : string;
  ocaml_runtime_params : string;
  pid : int64;
  initial_domain : int;
  start_time : int64;
  context : string option;
}

let header_printed = ref false

let print_header info =
  header_printed := true;
  match info with
  | None -> header "\"format\":\"memtrace\",\"info\":null"
  | Some i ->
    header
      (Printf.sprintf
         "\"format\":\"memtrace\",\"info\":{\"version\":%s,\"sample_rate\":%s,\"word_size\":%d,\"executable_name\":%s,\"host_name\":%s,\"ocaml_runtime_params\":%s,\"pid\":%Ld,\"initial_domain\":%d,\"start_time\":%Ld,\"context\":%s}"
         (match i.version with Some v -> string_of_int v | None -> "null")
         (float_text i.sample_rate) i.word_size (text i.executable_name) (text i.host_name)
         (text i.ocaml_runtime_params) i.pid i.initial_domain i.start_time
         (match i.context with Some c -> text c | None -> "null"))

(* The header that a failure in Reader.open_ kept from being printed: the trace-info
   packet could not be read, so its members are null. *)
let header_if_missing () = if not !header_printed then print_header None

type frame = { filename : string; line : int; start_char : int; end_char : int; defname : string }

(* Location codes are printed once, just before the first event that uses them. *)
let seen : (int, unit) Hashtbl.t = Hashtbl.create 4096

(* Lower-case hex without leading zeros, as %x prints it; written by hand because a
   backtrace-heavy trace has millions of entries and Printf dominated the run time. *)
let add_hex buf code =
  if code < 0 then Buffer.add_string buf (Printf.sprintf "%x" code)
  else if code = 0 then Buffer.add_char buf '0'
  else (
    let digits = Bytes.create 16 in
    let rec fill v i =
      if v = 0 then i
      else (
        Bytes.set digits (i - 1) "0123456789abcdef".[v land 15];
        fill (v lsr 4) (i - 1))
    in
    let first = fill code 16 in
    Buffer.add_subbytes buf digits first (16 - first))

let code_hex code =
  let b = Buffer.create 16 in
  add_hex b code;
  Buffer.contents b

let print_location code frames =
  let frame f =
    Printf.sprintf "{\"filename\":%s,\"line\":%d,\"start_char\":%d,\"end_char\":%d,\"defname\":%s}"
      (text f.filename) f.line f.start_char f.end_char (text f.defname)
  in
  record "location"
    (Printf.sprintf "\"code\":\"%s\",\"frames\":[%s]" (code_hex code)
       (String.concat "," (List.map frame frames)))

(* [lookup] asks the real reader for a code's frames; it raises (and so ends the stream
   with an error) for a code that no location event defined, as the oracle rejects it. *)
let print_new_locations ~lookup codes len =
  for i = 0 to len - 1 do
    let code = codes i in
    if not (Hashtbl.mem seen code) then (
      print_location code (lookup code);
      Hashtbl.replace seen code ())
  done

let bt = Buffer.create 4096

let print_alloc ~time ~domain ~id ~length ~nsamples ~source ~common_prefix codes len =
  Buffer.clear bt;
  for i = 0 to len - 1 do
    if i > 0 then Buffer.add_char bt ',';
    Buffer.add_char bt '"';
    add_hex bt (codes i);
    Buffer.add_char bt '"'
  done;
  record "alloc"
    (Printf.sprintf
       "\"time\":%Lu,\"domain\":%d,\"id\":%d,\"length\":%d,\"nsamples\":%d,\"source\":\"%s\",\"common_prefix\":%d,\"backtrace\":[%s]"
       time domain id length nsamples source common_prefix (Buffer.contents bt))

let print_lifetime kind ~time ~domain ~id =
  record kind (Printf.sprintf "\"time\":%Lu,\"domain\":%d,\"id\":%d" time domain id)

// An independent decoder written from the specification alone, in another language: it reads
// the vector listing of the documents (not the JSON) and opens every vector with Node's own
// crypto, to show the specification is enough. Run by test_encryption_vectors.py:
//     node backend/tests/data/decode_from_spec.mjs docs/reference/{stored-format,key-formats,encryption-vectors}.md
import { readFileSync } from "node:fs";
import crypto from "node:crypto";
// The pages, read as one document: the markers below are each on one of them.
const doc = process.argv.slice(2).map((page) => readFileSync(page, "utf8")).join("\n");
const block = doc.slice(doc.indexOf("<!-- encryption-vectors:begin -->"), doc.indexOf("<!-- encryption-vectors:end -->"));
const vectors = [];
for (const m of block.matchAll(/##### `([^`]+)`\n\n```text\n([\s\S]*?)```/g)) {
  const v = { name: m[1] }; let cur = null;
  for (const line of m[2].split("\n")) {
    if (!line) continue;
    const h = line.match(/^([a-z_ ()A-Z0-9-]+?) \((\d+) bytes\)$/);
    if (h) { cur = h[1]; v[cur] = ""; continue; }
    const kv = line.match(/^([a-z_]+)\s+(.*)$/);
    if (kv && !/^[0-9a-f]+$/.test(line)) { v[kv[1]] = kv[2]; cur = null; continue; }
    if (cur) v[cur] += line.trim();
  }
  vectors.push(v);
}
const hex = (s) => Buffer.from(s, "hex");
const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32BE(Number(n)); return b; };
const uuid = (s) => hex(s.replace(/-/g, ""));
const gcmOpen = (key, nonce, body, aad) => {
  const d = crypto.createDecipheriv("aes-256-gcm", key, nonce);
  d.setAAD(aad); d.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([d.update(body.subarray(0, body.length - 16)), d.final()]);
};
const plain = (v) => v["plaintext as UTF-8"] !== undefined ? hex(v["plaintext as UTF-8"]) : Buffer.from(JSON.parse(v.plaintext), "utf8");
const wraps = Object.fromEntries(vectors.filter(v => v.master_key).map(v => [v.name, v]));
// A practice key (data key or blind-index key) unwrapped from the wrapping vector named in brackets.
const unwrap = (ref) => {
  const w = wraps[ref.match(/\[(.*)\]/)[1]], wk = hex(w["expected (wrapped_key)"]);
  const label = w.index_key ? "carevault/blind-index-key/1" : "carevault/data-key/1";
  const under = w.index_key ? w.wrapped_under : w.key_version;
  return gcmOpen(hex(w.master_key), wk.subarray(0, 12), wk.subarray(12), Buffer.concat([Buffer.from(label), uuid(w.workspace_id), u32(under)]));
};
const cbcHmacOpen = (k, e, ctx) => {
  const enc = crypto.createHmac("sha256", k).update("carevault/pgcrypto/enc").digest();
  const mac = crypto.createHmac("sha256", k).update("carevault/pgcrypto/mac").digest();
  const body = e.subarray(0, e.length - 32);
  const len = Buffer.alloc(8); len.writeBigUInt64BE(BigInt(ctx.length));
  const tag = crypto.createHmac("sha256", mac).update(Buffer.concat([body, ctx, len])).digest();
  if (!crypto.timingSafeEqual(tag, e.subarray(e.length - 32))) throw new Error("mac");
  const d = crypto.createDecipheriv("aes-256-cbc", enc, body.subarray(5, 21));
  return Buffer.concat([d.update(body.subarray(21)), d.final()]);
};
let ok = 0;
for (const v of vectors) {
  if (v.format?.startsWith("pgcrypto-bound")) {
    const dk = unwrap(v.data_key), e = hex(v.expected);
    const ctx = Buffer.concat([uuid(v.workspace_id), uuid(v.row_id), Buffer.from(v.context)]);
    if (!cbcHmacOpen(dk, e, ctx).equals(plain(v))) throw new Error(v.name); ok++;
    // moved to another row must fail
    let failed = false;
    try { cbcHmacOpen(dk, e, Buffer.concat([uuid(v.workspace_id), Buffer.alloc(16), Buffer.from(v.context)])); } catch { failed = true; }
    if (!failed) throw new Error("moved " + v.name);
  } else if (v.format?.startsWith("aesgcm (")) {
    const e = hex(v.expected), head = e.subarray(0, 5);
    const pt = gcmOpen(hex(v.key), e.subarray(5, 17), e.subarray(17), Buffer.concat([head, Buffer.from(v.context)]));
    if (!pt.equals(plain(v))) throw new Error(v.name); ok++;
  } else if (v.format?.startsWith("pgcrypto-cbc-hmac")) {
    if (!cbcHmacOpen(hex(v.key), hex(v.expected), Buffer.from(v.context)).equals(plain(v))) throw new Error(v.name); ok++;
  } else if (v.index_key) {
    if (!unwrap(`[${v.name}]`).equals(hex(v.index_key))) throw new Error(v.name); ok++;
  } else if (v.master_key) {
    const w = hex(v["expected (wrapped_key)"]);
    const aad = Buffer.concat([Buffer.from("carevault/data-key/1"), uuid(v.workspace_id), u32(v.key_version)]);
    const dk = gcmOpen(hex(v.master_key), w.subarray(0, 12), w.subarray(12), aad);
    if (!dk.equals(hex(v.data_key))) throw new Error(v.name); ok++;
  } else if (v.format?.startsWith("aesgcm-bound")) {
    const dk = unwrap(v.data_key);
    const e = hex(v.expected), head = e.subarray(0, 5);
    const aad = Buffer.concat([head, uuid(v.workspace_id), uuid(v.row_id), Buffer.from(v.context)]);
    const pt = gcmOpen(dk, e.subarray(5, 17), e.subarray(17), aad);
    if (!pt.equals(plain(v))) throw new Error(v.name); ok++;
    // moved to another row must fail
    let failed = false;
    try { gcmOpen(dk, e.subarray(5, 17), e.subarray(17), Buffer.concat([head, uuid(v.workspace_id), Buffer.alloc(16), Buffer.from(v.context)])); } catch { failed = true; }
    if (!failed) throw new Error("moved " + v.name);
  } else if (v.kind) {
    // The practice's own key when one is named, else the ring-wide key of the section.
    const key = v.key ? unwrap(v.key) : hex(block.match(/Key for all of them: `([0-9a-f]+)`/)[1]);
    if (v.key && !unwrap(v.key).equals(hex(v.key.split(" ")[0]))) throw new Error("key " + v.name);
    const input = JSON.parse(v.input);
    const set = new Set(doc.slice(doc.indexOf("<!-- strip-characters:begin -->"), doc.indexOf("<!-- strip-characters:end -->")).match(/U\+[0-9A-F]{4,6}/g).map(c => String.fromCodePoint(parseInt(c.slice(2), 16))));
    let n = input.normalize("NFKC");
    if (v.kind === "email") {
      let cps = [...n]; while (cps.length && set.has(cps[0])) cps.shift(); while (cps.length && set.has(cps[cps.length - 1])) cps.pop();
      n = cps.join("").toLowerCase();
    } else if (v.kind === "phone-e164") {
      if (n !== input || !/^\+[1-9][0-9]{1,19}$/.test(n)) throw new Error("e164 " + v.name);
    } else n = [...n].filter(c => /\p{Nd}/u.test(c)).join("");
    if (n !== JSON.parse(v.normalized)) throw new Error("norm " + v.name + " " + n);
    const msg = Buffer.concat([Buffer.from(v.kind), Buffer.from([0]), Buffer.from(v.scope), Buffer.from([0]), Buffer.from(n, "utf8")]);
    if (crypto.createHmac("sha256", key).update(msg).digest("hex") !== v.expected) throw new Error(v.name); ok++;
  } else throw new Error("unparsed " + JSON.stringify(v));
}
console.log(`${ok} of ${vectors.length} vectors decoded from the document alone`);
// The KMS layout (docs/reference/key-formats.md, "KMS layout vector"): the framing of a KMS wrapped key,
// the blind-index key under the data key, a 0x03 value under the data key.
const kmsBlock = doc.slice(doc.indexOf("<!-- kms-vectors:begin -->"), doc.indexOf("<!-- kms-vectors:end -->"));
let kmsOk = 0;
for (const m of kmsBlock.matchAll(/##### `([^`]+)`\n\n```text\n([\s\S]*?)```/g)) {
  const v = {}; let cur = null;
  for (const line of m[2].split("\n")) {
    if (!line) continue;
    const h = line.match(/^([a-z_ ()A-Z0-9-]+?) \((\d+) bytes\)$/);
    if (h) { cur = h[1]; v[cur] = ""; continue; }
    const kv = line.match(/^([a-z_]+)\s+(.*)$/);
    if (kv && !/^[0-9a-f]+$/.test(line)) { v[kv[1]] = kv[2]; cur = null; continue; }
    if (cur) v[cur] += line.trim();
  }
  const w = hex(v["expected (wrapped_key)"]);
  if (w[0] !== 0x4b) throw new Error("kms format byte " + m[1]);
  const len = w.readUInt16BE(1);
  if (w.subarray(3, 3 + len).toString("utf8") !== v.kms_key_id) throw new Error("kms key id " + m[1]);
  if (!w.subarray(3 + len).equals(hex(v.ciphertext_blob))) throw new Error("kms blob " + m[1]);
  const dk = hex(v.data_key), iw = hex(v["expected (index wrapped_key)"]);
  const ik = gcmOpen(dk, iw.subarray(0, 12), iw.subarray(12), Buffer.concat([Buffer.from("carevault/blind-index-key/1"), uuid(v.workspace_id), u32(v.key_version)]));
  if (!ik.equals(hex(v.index_key))) throw new Error("kms index key " + m[1]);
  const e = hex(v["expected (value)"]), head = e.subarray(0, 5);
  if (head[0] !== 3 || head.readUInt32BE(1) !== Number(v.key_version)) throw new Error("kms header " + m[1]);
  const pt = gcmOpen(dk, e.subarray(5, 17), e.subarray(17), Buffer.concat([head, uuid(v.workspace_id), uuid(v.row_id), Buffer.from(v.context)]));
  if (!pt.equals(Buffer.from(JSON.parse(v.plaintext), "utf8"))) throw new Error("kms value " + m[1]);
  kmsOk++;
}
if (kmsOk === 0) throw new Error("no KMS layout vector found");
console.log(`${kmsOk} KMS layout vector(s) decoded from the document alone`);

/* The rules engine in the referee's phone (a module worker, away from the page's thread): Pyodide running the
   server's own rules, ledger and console view model (tournament/console/engine_files.py zips them), through
   tournament/console/view_model/phone.py's JSON face. Started by static/console/engine.js with {call: "start", args: [pyodide folder URL, rules zip URL]};
   then {id, call: "view" | "apply" | "use_board", args} is answered {id, result} or {id, error}.

   Starting Python and importing the rules is most of the wait (6 s on a laptop, several times that on a phone).
   So the phone keeps the interpreter as it is then — a memory snapshot, gzipped in IndexedDB (it works over
   plain HTTP too), one only, under the Pyodide folder, the rules' version (their zip's ETag) and this file's
   address (its name carries a digest when served) — and the next start with the same of all three restores it
   instead (the rules' files unpacked again: the memory holds no files).
   A snapshot that does not restore, or restores an interpreter without the rules, is dropped and Python started
   afresh; without IndexedDB (a private window) or the rules' version, every start is a fresh one. "start"
   answers how: "restored" or "started". */
let ready = null;

const DATABASE = "console-engine";
const SNAPSHOTS = "pyodide-snapshots";

function snapshots(mode, act) {  // one request on the snapshots' store: its result (a failure rejects)
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(SNAPSHOTS);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      try {
        const tx = db.transaction(SNAPSHOTS, mode);
        const request = act(tx.objectStore(SNAPSHOTS));
        tx.oncomplete = () => { db.close(); resolve(request.result); };
        tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
      } catch (error) { db.close(); reject(error); }  // no such store, a closing database: never left pending
    };
  });
}

async function squeezed(bytes, stream) {  // bytes through a (de)compression stream
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

async function keptSnapshot(key) {
  const kept = await snapshots("readonly", (store) => store.get(key));
  return kept instanceof Uint8Array ? squeezed(kept, new DecompressionStream("gzip")) : null;
}

async function keepSnapshot(key, snapshot) {
  const packed = await squeezed(snapshot, new CompressionStream("gzip"));
  await snapshots("readwrite", (store) => { store.clear(); return store.put(packed, key); });  // one kept
}

const ENGINE = "/home/pyodide/engine";
const PHONE = "tournament.console.view_model.phone";

async function restored(loadPyodide, folder, key) {  // the interpreter kept under key, or null
  const snapshot = key && await keptSnapshot(key).catch(() => null);
  if (!snapshot) { return null; }
  try {
    const py = await loadPyodide({ indexURL: folder, _loadSnapshot: snapshot });
    if (py.runPython(`import sys; '${PHONE}' in sys.modules`) === true) { return py; }
  } catch (error) { /* started afresh, and a new snapshot kept in its place */ }
  await snapshots("readwrite", (store) => store.delete(key)).catch(() => null);
  return null;
}

async function start(folder, rulesZip) {
  const [{ loadPyodide }, zip] = await Promise.all([import(folder + "pyodide.mjs"), fetch(rulesZip)]);
  if (!zip.ok) { throw new Error("rules: " + zip.status); }
  const rules = await zip.arrayBuffer();
  const version = zip.headers.get("ETag");  // the rules' (engine_files.py): a snapshot holds them imported
  const key = version && `${folder} ${version} ${self.location.href}`;  // and this file's (hashed when served)
  let py = await restored(loadPyodide, folder, key);
  const how = py ? "restored" : "started";
  if (!py) { py = await loadPyodide({ indexURL: folder, _makeSnapshot: true }); }
  py.unpackArchive(rules, "zip", { extractDir: ENGINE });  // the files too (kept apart from the memory)
  if (how === "started") {
    py.runPython(`import sys; sys.path.insert(0, '${ENGINE}'); import ${PHONE}`);
    try {  // kept while the phone goes on: nobody waits for it
      if (key && self.CompressionStream) { keepSnapshot(key, py.makeMemorySnapshot()).catch(() => null); }
    } catch (error) { /* not kept: the next start is a fresh one too */ }
  }
  return [py.pyimport(PHONE), how];
}

self.onmessage = async (message) => {
  const { id, call, args } = message.data;
  try {
    if (call === "start") {
      ready = ready || start(args[0], args[1]);
      const [, how] = await ready;
      self.postMessage({ id, result: how });
      return;
    }
    const [offline] = await ready;
    let result = offline[call](...args);
    if (result !== undefined && typeof result !== "string") { result = String(result); }
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};

/* The rules engine in the referee's phone (a module worker, away from the page's thread): Pyodide running the
   server's own rules, ledger and console view model (tournament/console/engine_files.py zips them), through
   tournament/console/view_model/phone.py's JSON face. Started by static/console/engine.js with {call: "start", args: [pyodide folder URL, rules zip URL]};
   then {id, call: "view" | "apply" | "use_board", args} is answered {id, result} or {id, error}. */
let ready = null;

async function start(pyodideFolder, rulesZip) {
  const { loadPyodide } = await import(pyodideFolder + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: pyodideFolder });
  const zip = await fetch(rulesZip);
  if (!zip.ok) { throw new Error("rules: " + zip.status); }
  py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/engine" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
  return py.pyimport("tournament.console.view_model.phone");
}

self.onmessage = async (message) => {
  const { id, call, args } = message.data;
  try {
    if (call === "start") {
      ready = ready || start(args[0], args[1]);
      await ready;
      self.postMessage({ id, result: "ready" });
      return;
    }
    const offline = await ready;
    let result = offline[call](...args);
    if (result !== undefined && typeof result !== "string") { result = String(result); }
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message || error) });
  }
};

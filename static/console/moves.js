/* A move as the console keeps it: the key it is sent under, the log's entry of the server's, the game the
   rules read ("play"), what a move did in words. */

/* The key a request is sent under (the server takes each key once: a move sent twice is entered once): the
   page's start (this device's) and 16 random bytes. */
export function newKey(start) {
  var bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return start + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}

/* A line of the server's log, as the phone's log keeps it. */
export function fromServer(row) {
  return { seq: row.seq, notes: row.notes, status: row.status, reason: row.reason, by: row.by, mine: row.mine, type: row.type };
}

/* A game as the phone keeps it and its rules read it ("play"): {state, ledger (each player's income and
   cost), counts (the cash counts: rules/cash_counts.py), next_seq (the number the next move gets)}. */
export function playOf(p) { return { state: p.state, ledger: p.ledger, counts: p.counts, next_seq: p.next_seq }; }

/* A throw of the dice pad (a roll, a utility's rent, a final valuation), entered alone: its dice can be
   corrected in one tap (recording.DICE_PAD_MOVES). */
export function isThrow(events) {
  return events.length === 1 && ["roll", "rent", "final_roll"].indexOf(events[0].type) >= 0 && !!events[0].dice;
}

/* What move ``seq`` did: the server said it (``countTexts``, by number), or the phone's log has it (its own
   moves, by the numbers the server will give them). */
export function moveText(seq, countTexts, log) {
  if (countTexts[seq]) { return countTexts[seq].join(" "); }
  var entry = log.filter(function (e) { return e.seq === seq || (e.from <= seq && seq <= e.to); })[0];
  return entry ? entry.notes.join(" ") : "";
}

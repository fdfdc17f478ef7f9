#!/usr/bin/env python3
"""Where one managed upload's time goes, part by part and chunk by chunk (issue 31).

Reads the events that bench/device/upload-trace.patch makes the client and the gateway append to
$VGWRDMA_TRACE_FILE.<pid> (one JSON object a line: t = epoch ms, ev = the event) and summarizes
the last upload round in DIR (rounds are told apart by a pause of over 0.8 s between parts):

  client   c.start (a session taken; `queued` = when the part asked), c.filled (copied into the
           session's memory), c.reply (the gateway answered)
  gateway  up.start (admitted, session open; `at` = when the request reached the upload path),
           up.primed (first READ landed), up.called (the backend finished), up.end (released);
           rd.sub / rd.done per READ of a chunk, lend (the chunk handed to the backend)
  posix    ing.lend, ing.md5 (the chunk's MD5 done), ing.wrote (its write done), ing.drained,
           ing.next

Means with p90, per part and per chunk, the average number of parts / chunks in each state, and
the MD5 service time per chunk: md5[k] - max(lend[k], md5[k-1]), i.e. how long the hash of one
chunk takes once it can start (the hash of one part is a chain).

  apply the patch, build, bundle (bench/device/bundle.mjs), run with VGWRDMA_TRACE_FILE=DIR/t,
  then: python3 bench/device/upload-timeline.py DIR
"""
import collections
import glob
import json
import statistics
import sys


def load(directory):
    events = []
    for path in glob.glob(f"{directory}/t.*"):
        with open(path) as f:
            events.extend(json.loads(line) for line in f)
    events.sort(key=lambda e: e["t"])
    return events


def summary(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return "-"
    return f"{statistics.mean(xs):7.1f} ms (p90 {xs[int(len(xs) * 0.9)]:7.1f}, n {len(xs)})"


def last_round(events):
    starts = [e for e in events if e["ev"] == "c.start"]
    rounds, current = [], [starts[0]]
    for a, b in zip(starts, starts[1:]):
        if b["t"] - a["t"] > 800:
            rounds.append(current)
            current = []
        current.append(b)
    rounds.append(current)
    return rounds


def main(directory):
    events = load(directory)
    rounds = last_round(events)
    parts = rounds[-1]
    t0 = parts[0]["queued"]
    t1 = max(e["t"] for e in events if e["ev"] == "c.reply" and e["t"] >= t0)
    wall = t1 - t0
    window = [e for e in events if t0 - 1 <= e.get("at", e["t"]) <= t1 + 1]
    print(f"rounds (parts each): {[len(r) for r in rounds]}; the last one:")
    print(f"  {len(parts)} parts in {wall:.0f} ms: {len(parts) * 64 * 2**20 / wall / 1e6:.2f} GB/s (64 MiB parts)")

    client = collections.defaultdict(dict)
    uploads = collections.defaultdict(dict)
    reads = collections.defaultdict(dict)
    chunks = collections.defaultdict(dict)
    for e in window:
        ev = e["ev"]
        if ev.startswith("c."):
            client[e["n"]].setdefault(ev, e["t"])
            if ev == "c.start":
                client[e["n"]]["queued"] = e["queued"]
        elif ev.startswith("up."):
            uploads[e["id"]][ev] = e["t"]
            if ev == "up.start":
                uploads[e["id"]].update(at=e["at"], admit=e["waitAdmit"], open=e["open"])
        elif ev in ("rd.sub", "rd.done", "lend"):
            reads[(e["id"], e["i"])][ev] = e["t"]
        elif ev.startswith("ing.") and "k" in e:
            chunks[(e["ing"], e["k"])][ev] = e["t"]

    def span(rows, a, b):
        return [r[b] - r[a] for r in rows if a in r and b in r]

    def busy(rows, a, b):
        return sum(r[b] - r[a] for r in rows if a in r and b in r) / wall

    c = list(client.values())
    u = [x for x in uploads.values() if "up.end" in x and "at" in x]
    r = list(reads.values())
    k = list(chunks.values())
    print("client, per part")
    print("  wait for a session   ", summary(span(c, "queued", "c.start")))
    print("  copy into it         ", summary(span(c, "c.start", "c.filled")))
    print("  request to answer    ", summary(span(c, "c.filled", "c.reply")))
    print("gateway, per part")
    print("  admission wait       ", summary([x["admit"] for x in u]))
    print("  first READ           ", summary(span(u, "up.start", "up.primed")))
    print("  backend (ingest)     ", summary(span(u, "up.primed", "up.called")))
    print("  whole                ", summary([x["up.end"] - x["at"] for x in u]))
    print("per 8 MiB chunk")
    print("  READ                 ", summary(span(r, "rd.sub", "rd.done")))
    print("  landed, not yet taken", summary(span(r, "rd.done", "lend")))
    print("  taken to MD5 done    ", summary(span(k, "ing.lend", "ing.md5")))
    print("  taken to write done  ", summary(span(k, "ing.lend", "ing.wrote")))
    by_ingest = collections.defaultdict(dict)
    for (ingest, n), row in chunks.items():
        by_ingest[ingest][n] = row
    service = []
    for rows in by_ingest.values():
        for n in sorted(rows):
            row = rows[n]
            if "ing.md5" in row and "ing.lend" in row:
                before = rows.get(n - 1, {}).get("ing.md5", 0)
                service.append(row["ing.md5"] - max(row["ing.lend"], before))
    print("  MD5 service          ", summary(service))
    print("on average at once")
    print(f"  parts at the client {busy(c, 'c.start', 'c.reply'):5.1f}, at the gateway "
          f"{sum(x['up.end'] - x['at'] for x in u) / wall:5.1f}")
    print(f"  READs {busy(r, 'rd.sub', 'rd.done'):5.1f}, chunks hashing {busy(k, 'ing.lend', 'ing.md5'):5.1f}, "
          f"writing {busy(k, 'ing.lend', 'ing.wrote'):5.1f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: upload-timeline.py DIR (the directory of VGWRDMA_TRACE_FILE=DIR/t)")
    main(sys.argv[1])

#!/usr/bin/env python3
"""Writes the seeds of tests/fuzz/corpus/ (docs/reliability.md, "Fuzzing"): for engines, a
game of listed commands on each scenario; for loaders, the repository's own scenarios,
campaigns and records behind their kind byte; envelopes (encoded by protoc from text
format), WebSocket frames and HTTP requests for the others. Run from the repository root;
rewrites only its own seed files, never the inputs a fuzzing run added."""
import glob
import os
import random
import struct
import subprocess

ROOT = os.getcwd()
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def envelope(text):
    return subprocess.run(
        ["protoc", "-I", ROOT, "--encode=castra.v1.ClientEnvelope", "proto/castra/v1/protocol.proto"],
        input=text.encode(), stdout=subprocess.PIPE, check=True).stdout


HELLO = 'request_id: 1 hello { major: 1 minor: 3 client: "fuzz" }'
REQUESTS = {
    "hello": [HELLO],
    "guest": [HELLO, "request_id: 2 guest_login {}", 'request_id: 3 list_scenarios { ruleset: "optio" }'],
    "create": [HELLO, "request_id: 2 guest_login {}", 'request_id: 3 create_match { scenario: "optio/test" }',
               "request_id: 4 list_matches { status: MATCH_OPEN }", "request_id: 5 my_matches {}"],
    "register": [HELLO, 'request_id: 2 register_account { name: "fuzzer" password: "fuzzer-password" }',
                 'request_id: 3 login { name: "fuzzer" password: "fuzzer-password" }'],
    "submit": [HELLO, "request_id: 2 guest_login {}",
               'request_id: 3 submit_command { match_id: "m1" client_seq: 1 command { stand { end_phase {} } } }',
               'request_id: 4 get_snapshot { match_id: "m1" entry_count: 3 }',
               'request_id: 5 subscribe_match { match_id: "m1" }'],
    "campaigns": [HELLO, "request_id: 2 guest_login {}", "request_id: 3 list_campaign_definitions {}",
                  "request_id: 4 list_online {}"],
    "ping": [HELLO, "request_id: 2 ping { nonce: 7 }", "ping { nonce: 8 }"],
}


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def ws_frame(payload, opcode=2, fin=True, mask=b"\0\0\0\0"):
    """A client's frame: masked, as RFC 6455 requires (the key 0 leaves the payload readable)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


for name, texts in REQUESTS.items():
    frames = [envelope(t) for t in texts]
    # envelope: a flags byte (bit 0: text), a 16-bit little-endian length, the frame.
    write("envelope", name, b"".join(b"\0" + struct.pack("<H", len(f)) + f for f in frames))
    write("session", name, b"".join(ws_frame(f) for f in frames))
write("envelope", "text-frame", b"\x01\x05\x00hello")
write("session", "text", ws_frame(b"hello", opcode=1))
write("session", "fragmented", ws_frame(b"hel", opcode=2, fin=False) + ws_frame(b"lo", opcode=0))
write("session", "ping-pong-close", ws_frame(b"p", opcode=9) + ws_frame(b"q", opcode=10)
      + ws_frame(struct.pack(">H", 1000) + b"bye", opcode=8))
write("session", "close-asked", ws_frame(b"close now"))
write("session", "masked", ws_frame(b"masked payload", mask=b"\x11\x22\x33\x44"))
write("session", "unmasked", bytes([0x82, 5]) + b"plain")
write("session", "oversize", bytes([0x82, 0x80 | 127]) + struct.pack(">Q", 1 << 20) + b"\0\0\0\0" + b"x" * 64)
write("session", "flood", ws_frame(b"x") * 50)

HTTP = {
    "healthz": b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
    "metrics": b"GET /metrics HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    "pipelined": b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /nothing HTTP/1.1\r\nHost: a\r\n\r\n",
    "post": b"POST /ws HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    "chunked": b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "too-long": b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000000000\r\n\r\n",
    "garbage": b"\x16\x03\x01 hello\r\n\r\n",
    "big-header": b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "forwarded": b"GET /metrics HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 10.0.0.1, ::1\r\n\r\n",
    "upgrade-elsewhere": b"GET /other HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    "upgrade": b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
               + ws_frame(b"hi"),
    "http10": b"GET /healthz HTTP/1.0\r\n\r\n",
}
for name, data in HTTP.items():
    write("http", name, data)

# engines: the scenario's index, a starting point's (0-5), then 8 steps of (op, 16-bit seed):
# mostly a listed command of the acting side, now and then a blind one (op 2) or one from the
# other side (0x20).
rng = random.Random(16)
for i in range(20):
    for depth in range(6):
        steps = b"".join(bytes([rng.choice([0, 1, 0, 1, 2, 0x20]), rng.randrange(256), rng.randrange(256)])
                         for _ in range(8))
        write("engines", "scenario-%02d-start-%d" % (i, depth), bytes([i, depth]) + steps)

# loaders: kind 0 scenario, 1 campaign, 2 record (JSON).
for kind, prefix, files in [
        (0, "scenario-", ["scenarios/optio/training.json", "scenarios/stand/training.json",
                          "scenarios/optio/lessons/charge.json", "scenarios/stand/lessons/cover.json"]
         + sorted(glob.glob("tests/data/refused_scenarios/optio/*.json"))),
        (1, "campaign-", ["scenarios/campaigns/pyrrhic-war.json", "tests/data/campaigns/stand_three.json"]),
        (2, "record-", sorted(glob.glob("tests/data/records/*.json")))]:
    for f in files:
        name = prefix + os.path.basename(os.path.dirname(f)) + "-" + os.path.basename(f)[:-5]
        with open(f, "rb") as src:
            write("loaders", name, bytes([kind]) + src.read())

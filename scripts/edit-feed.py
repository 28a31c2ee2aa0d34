#!/usr/bin/env python3
"""A stand-in for seed 003's feed: a WebSocket of Wikipedia-style edits,
{"type": …, "content": …, "time": …}, one every second or so, now and then a "newuser"
event. For trying feedweb's WebSocket upstream and for the README's seed 003 screenshot,
with no network: Python stdlib only (RFC 6455 handshake and unmasked text frames).

    scripts/edit-feed.py [PORT]        # default 8765; serves ws://127.0.0.1:PORT/

Each connection gets its own stream of edits until it closes. Pings are answered.
"""
import base64
import datetime
import hashlib
import json
import random
import socket
import struct
import sys
import threading
import time

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8765
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TITLES = [
    "Manhattan Film Academy", "Dune (novel)", "List of lighthouses in Norway", "Ada Lovelace",
    "Tour de France", "Photosynthesis", "Mount Kilimanjaro", "Jazz fusion", "Byzantine Empire",
    "Rosetta Stone", "Quantum entanglement", "Great Barrier Reef", "Haiku", "Kraftwerk",
    "Sourdough", "Apollo 11", "Fibonacci number", "Danube", "Chess opening", "Aurora",
]
USERS = ["Quillwright", "Marginalia", "Tesserae", "Nightjar", "Lintel", "Cobblestone", "Fennel"]


def frame(opcode, payload):
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 1 << 16:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


def read_frames(conn, lock):
    """Answers pings and notices the close; returns when the client goes."""
    try:
        while True:
            head = conn.recv(2)
            if len(head) < 2:
                return
            opcode, n = head[0] & 0x0F, head[1] & 0x7F
            if n == 126:
                n = struct.unpack("!H", conn.recv(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", conn.recv(8))[0]
            mask = conn.recv(4) if head[1] & 0x80 else b"\0\0\0\0"
            data = b""
            while len(data) < n:
                chunk = conn.recv(n - len(data))
                if not chunk:
                    return
                data += chunk
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            with lock:
                if opcode == 0x9:
                    conn.sendall(frame(0xA, data))
                elif opcode == 0x8:
                    conn.sendall(frame(0x8, data[:2]))
                    return
    except OSError:
        return


def serve(conn):
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = conn.recv(4096)
        if not chunk:
            return
        request += chunk
    key = next((line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                if line.lower().startswith(b"sec-websocket-key:")), b"")
    accept = base64.b64encode(hashlib.sha1(key + GUID.encode()).digest()).decode()
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
    lock = threading.Lock()
    reader = threading.Thread(target=read_frames, args=(conn, lock), daemon=True)
    reader.start()
    rng = random.Random()
    try:
        while reader.is_alive():
            time.sleep(rng.uniform(0.3, 1.7))
            now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
            if rng.random() < 0.06:
                edit = {"type": "newuser", "content": rng.choice(USERS) + str(rng.randint(1, 99)),
                        "time": now.replace("+00:00", "Z")}
            else:
                edit = {"type": "unspecified", "content": rng.choice(TITLES), "time": now.replace("+00:00", "Z")}
            with lock:
                conn.sendall(frame(0x1, json.dumps(edit).encode()))
    except OSError:
        pass
    finally:
        conn.close()


listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", PORT))
listener.listen()
print(f"edits on ws://127.0.0.1:{PORT}/", flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()

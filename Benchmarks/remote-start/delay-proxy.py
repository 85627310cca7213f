#!/usr/bin/env python3
"""A TCP proxy on loopback that holds every chunk DELAY ms in each direction: a link with that
one-way latency (40 ms of round trip for 20), for remote starts measured as behind a real link.

    delay-proxy.py LISTEN-PORT SERVER-PORT DELAY-MS
"""
import asyncio, sys
listen, target, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000

async def pipe(reader, writer):
    queue = asyncio.Queue()
    async def pump():
        while True:
            at, data = await queue.get()
            if data is None: break
            wait = at + delay - asyncio.get_running_loop().time()
            if wait > 0: await asyncio.sleep(wait)
            writer.write(data)
            try: await writer.drain()
            except Exception: break
        try: writer.close()
        except Exception: pass
    task = asyncio.create_task(pump())
    try:
        while True:
            data = await reader.read(65536)
            if not data: break
            queue.put_nowait((asyncio.get_running_loop().time(), data))
    except Exception: pass
    queue.put_nowait((0, None))
    await task

async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
    except Exception:
        client_writer.close(); return
    await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen)
    async with server: await server.serve_forever()
asyncio.run(main())

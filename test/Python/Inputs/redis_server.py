"""A redis-server of a test's own: on a free loopback port, in a temporary
folder, with no persistence; and a server that accepts connections and
never answers (a slow or hung cache)."""

import shutil
import socket
import subprocess
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self):
        binary = shutil.which('redis-server')
        if binary is None:
            raise SystemExit('redis-server not found: scripts/setup.sh '
                             'installs it')
        self.folder = tempfile.mkdtemp(prefix='flyhoist-redis-')
        self.port = free_port()
        self.url = f'redis://127.0.0.1:{self.port}'
        self.process = subprocess.Popen(
            [binary, '--port', str(self.port), '--bind', '127.0.0.1',
             '--save', '', '--appendonly', 'no', '--dir', self.folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.client = None
        import redis
        for _ in range(500):
            try:
                self.client = redis.Redis(port=self.port, socket_timeout=5)
                self.client.ping()
                return
            except redis.exceptions.ConnectionError:
                if self.process.poll() is not None:
                    raise SystemExit('redis-server did not start')
                time.sleep(0.01)
        raise SystemExit('redis-server did not answer')

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class SilentServer:
    """Accepts connections and never answers: every request times out."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(('127.0.0.1', 0))
        self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.url = f'redis://127.0.0.1:{self.port}'
        self.accepted = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.accepted.append(connection)  # held open, never read

    def stop(self):
        self.socket.close()
        for connection in self.accepted:
            connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

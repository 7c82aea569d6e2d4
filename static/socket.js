// The one WebSocket client of the pages: it keeps a socket open to a path
// of the site, says hello on every (re)connection, pings every 15 s and
// replaces a socket silent for 45 s, and reconnects after a drop with a
// jittered exponential backoff (400 ms doubling to 8 s, back to 400 ms
// once the server answers). The room and the tournament pages both use it.
const backoffFirst = 400;
const backoffMax = 8000;
const pingEvery = 15000;
const silentFor = 45000;

// openSocket connects at once. path() is the path and query to connect to
// (read on every connection); hello() the first message; onMessage gets
// every message, parsed; onDown is called when a connection is lost and a
// retry is planned. It returns {send, reconnect, stop}.
export function openSocket({ path, hello, onMessage, onDown = () => {} }) {
  let ws = null;
  let backoff = backoffFirst;
  let lastMessage = Date.now();
  let stopped = false;
  let retry = 0;

  function connect() {
    clearTimeout(retry);
    if (stopped) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const sock = new WebSocket(proto + '//' + location.host + path());
    ws = sock;
    // For the end-to-end tests: closing it simulates a dropped connection.
    window.__golfSocket = sock;
    sock.onopen = () => sock.send(JSON.stringify(hello()));
    sock.onmessage = (e) => {
      if (ws !== sock) return;
      lastMessage = Date.now();
      backoff = backoffFirst;
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      onMessage(m);
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      ws = null;
      if (stopped) return;
      onDown();
      const wait = backoff + Math.random() * backoff * 0.3;
      backoff = Math.min(backoff * 2, backoffMax);
      retry = setTimeout(connect, wait);
    };
  }

  const timer = setInterval(() => {
    if (ws?.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: 'ping' }));
    if (Date.now() - lastMessage > silentFor) ws.close();
  }, pingEvery);
  const online = () => { if (!ws && !stopped) { backoff = backoffFirst; connect(); } };
  window.addEventListener('online', online);

  connect();
  return {
    // send sends m now if the socket is open; it reports whether it did.
    send(m) {
      if (ws?.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(m));
      return true;
    },
    // reconnect drops the socket and opens a new one at once.
    reconnect() {
      const old = ws;
      ws = null;
      old?.close();
      connect();
    },
    // stop closes the socket for good.
    stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(timer);
      window.removeEventListener('online', online);
      const old = ws;
      ws = null;
      old?.close();
    },
  };
}

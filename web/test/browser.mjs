// browser.mjs: what the page's tests share: a static server for the built
// page and Debian's chromium, headless, driven by playwright-core (nothing
// downloads a browser).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(new URL('../package.json', import.meta.url));
const { chromium } = require('playwright-core');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.png': 'image/png',
};

// Serves dir on 127.0.0.1, on a free port; resolves to the server.
export function serve(dir) {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    if (file.endsWith('/')) file += 'index.html';
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// Launches Debian's chromium, headless, with a fresh profile.
export function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // playwright gives each launch a fresh profile (its own --user-data-dir)
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

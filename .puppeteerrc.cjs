// Puppeteer must never download its own browser: rendering uses a system Chromium (see checker/render.ts).
module.exports = { skipDownload: true };

/**
 * The one Content-Security-Policy of the UI, served by `mountUi` and enforced again by the Electron
 * shell. Everything comes from our own origin: no inline script, no eval, no remote hosts, no frames.
 * React sets `style` through the CSSOM, which CSP does not govern, so `style-src 'self'` holds.
 */
export const uiCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers sent with every UI response (the page, its assets, the token exchange). */
export const uiSecurityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': uiCsp,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
};

// Written by `npm run units` (scripts/units.ts) from web/core/implementations/<id>/meta.ts: do not edit.
/** Every built-in implementation's description (its folder's meta.ts), in rank order; `classes` is its classOf for every algorithm. */
export const METAS = [
  {
    "id": "rustcrypto-wasm",
    "label": "RustCrypto → WASM",
    "description": "RustCrypto crates compiled to WebAssembly; the timing loop runs inside WASM.",
    "rank": 1,
    "algorithms": [
      "aes-128-gcm",
      "aes-256-gcm",
      "chacha20-poly1305",
      "xchacha20-poly1305",
      "ascon-aead128",
      "aes-128-cbc-hmac-sha256",
      "aes-256-cbc-hmac-sha256",
      "twofish-128-gcm",
      "serpent-128-gcm",
      "aegis-128l",
      "aegis-256",
      "aes-128-gcm-siv",
      "aes-256-gcm-siv",
      "aes-128-ocb3",
      "aes-256-ocb3",
      "aegis-128l-tag256",
      "aegis-256-tag256"
    ],
    "variants": [
      "simd128",
      "baseline"
    ],
    "needsWasm": true,
    "runtimes": [
      "browser",
      "node"
    ],
    "npm": [],
    "classes": {
      "aes-128-gcm": "constant-time",
      "aes-256-gcm": "constant-time",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "constant-time",
      "aes-256-cbc-hmac-sha256": "constant-time",
      "twofish-128-gcm": "table",
      "serpent-128-gcm": "constant-time",
      "aegis-128l": "constant-time",
      "aegis-256": "constant-time",
      "aes-128-gcm-siv": "constant-time",
      "aes-256-gcm-siv": "constant-time",
      "aes-128-ocb3": "constant-time",
      "aes-256-ocb3": "constant-time",
      "aegis-128l-tag256": "constant-time",
      "aegis-256-tag256": "constant-time"
    }
  },
  {
    "id": "webcrypto",
    "label": "Web Crypto",
    "description": "The platform's native crypto.subtle; CBC+HMAC composed from AES-CBC and HMAC; AES-OCB where the platform has it (no browser yet).",
    "rank": 2,
    "algorithms": [
      "aes-128-gcm",
      "aes-256-gcm",
      "chacha20-poly1305",
      "aes-128-cbc-hmac-sha256",
      "aes-256-cbc-hmac-sha256",
      "aes-128-ocb3",
      "aes-256-ocb3"
    ],
    "variants": [
      "sequential",
      "pipelined"
    ],
    "sameCalls": true,
    "runtimes": [
      "browser",
      "node"
    ],
    "npm": [],
    "classes": {
      "aes-128-gcm": "hardware",
      "aes-256-gcm": "hardware",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "hardware",
      "aes-256-cbc-hmac-sha256": "hardware",
      "twofish-128-gcm": "hardware",
      "serpent-128-gcm": "hardware",
      "aegis-128l": "hardware",
      "aegis-256": "hardware",
      "aes-128-gcm-siv": "hardware",
      "aes-256-gcm-siv": "hardware",
      "aes-128-ocb3": "hardware",
      "aes-256-ocb3": "hardware",
      "aegis-128l-tag256": "hardware",
      "aegis-256-tag256": "hardware"
    }
  },
  {
    "id": "noble",
    "label": "@noble/ciphers",
    "description": "The audited pure-JavaScript library web developers often pick instead.",
    "rank": 3,
    "algorithms": [
      "aes-128-gcm",
      "aes-256-gcm",
      "chacha20-poly1305",
      "xchacha20-poly1305",
      "aes-128-gcm-siv",
      "aes-256-gcm-siv"
    ],
    "variants": [
      "js"
    ],
    "runtimes": [
      "browser",
      "node"
    ],
    "npm": [
      "@noble/ciphers"
    ],
    "classes": {
      "aes-128-gcm": "table",
      "aes-256-gcm": "table",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "table",
      "aes-256-cbc-hmac-sha256": "table",
      "twofish-128-gcm": "table",
      "serpent-128-gcm": "table",
      "aegis-128l": "table",
      "aegis-256": "table",
      "aes-128-gcm-siv": "table",
      "aes-256-gcm-siv": "table",
      "aes-128-ocb3": "table",
      "aes-256-ocb3": "table",
      "aegis-128l-tag256": "table",
      "aegis-256-tag256": "table"
    }
  },
  {
    "id": "libsodium",
    "label": "libsodium.js",
    "description": "libsodium's C compiled to WASM by Emscripten (libsodium-wrappers), the WASM crypto most web apps already ship; timed from JS per call, as noble is.",
    "rank": 4,
    "algorithms": [
      "chacha20-poly1305",
      "xchacha20-poly1305",
      "aegis-128l-tag256",
      "aegis-256-tag256"
    ],
    "variants": [
      "wasm"
    ],
    "needsWasm": true,
    "runtimes": [
      "browser",
      "node"
    ],
    "npm": [
      "libsodium-wrappers"
    ],
    "classes": {
      "aes-128-gcm": "constant-time",
      "aes-256-gcm": "constant-time",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "constant-time",
      "aes-256-cbc-hmac-sha256": "constant-time",
      "twofish-128-gcm": "constant-time",
      "serpent-128-gcm": "constant-time",
      "aegis-128l": "table",
      "aegis-256": "table",
      "aes-128-gcm-siv": "constant-time",
      "aes-256-gcm-siv": "constant-time",
      "aes-128-ocb3": "constant-time",
      "aes-256-ocb3": "constant-time",
      "aegis-128l-tag256": "table",
      "aegis-256-tag256": "table"
    }
  },
  {
    "id": "libaegis-wasm",
    "label": "libaegis (C) → WASM",
    "description": "The aegis crate's prebuilt libaegis, C compiled for wasm32 with SIMD (relaxed SIMD where the engine has it); the timing loop runs inside WASM.",
    "rank": 5,
    "algorithms": [
      "aegis-128l",
      "aegis-256",
      "aegis-128l-tag256",
      "aegis-256-tag256"
    ],
    "variants": [
      "relaxed-simd",
      "simd128"
    ],
    "needsWasm": true,
    "runtimes": [
      "browser",
      "node"
    ],
    "npm": [],
    "classes": {
      "aes-128-gcm": "constant-time",
      "aes-256-gcm": "constant-time",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "constant-time",
      "aes-256-cbc-hmac-sha256": "constant-time",
      "twofish-128-gcm": "constant-time",
      "serpent-128-gcm": "constant-time",
      "aegis-128l": "constant-time",
      "aegis-256": "constant-time",
      "aes-128-gcm-siv": "constant-time",
      "aes-256-gcm-siv": "constant-time",
      "aes-128-ocb3": "constant-time",
      "aes-256-ocb3": "constant-time",
      "aegis-128l-tag256": "constant-time",
      "aegis-256-tag256": "constant-time"
    }
  },
  {
    "id": "node-crypto",
    "label": "node:crypto (OpenSSL)",
    "description": "Node's OpenSSL binding, beside WASM for server users. Node only.",
    "rank": 6,
    "algorithms": [
      "aes-128-gcm",
      "aes-256-gcm",
      "chacha20-poly1305",
      "aes-128-cbc-hmac-sha256",
      "aes-256-cbc-hmac-sha256",
      "aes-128-ocb3",
      "aes-256-ocb3"
    ],
    "variants": [
      "openssl"
    ],
    "runtimes": [
      "node"
    ],
    "npm": [],
    "classes": {
      "aes-128-gcm": "hardware",
      "aes-256-gcm": "hardware",
      "chacha20-poly1305": "constant-time",
      "xchacha20-poly1305": "constant-time",
      "ascon-aead128": "constant-time",
      "aes-128-cbc-hmac-sha256": "hardware",
      "aes-256-cbc-hmac-sha256": "hardware",
      "twofish-128-gcm": "hardware",
      "serpent-128-gcm": "hardware",
      "aegis-128l": "hardware",
      "aegis-256": "hardware",
      "aes-128-gcm-siv": "hardware",
      "aes-256-gcm-siv": "hardware",
      "aes-128-ocb3": "hardware",
      "aes-256-ocb3": "hardware",
      "aegis-128l-tag256": "hardware",
      "aegis-256-tag256": "hardware"
    }
  }
] as const;

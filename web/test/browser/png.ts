/**
 * Just enough PNG decoding (8-bit RGB/RGBA, not interlaced: what Chromium's screenshots are) to
 * tell a real screenshot from a blank one, without an image library.
 */
import { inflateSync } from "node:zlib";

export interface Pixels {
  width: number;
  height: number;
  /** RGB triples, row by row. */
  rgb: Uint8Array;
}

export function decodePng(png: Buffer): Pixels {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("ascii", offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8];
      const colour = data[9];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || data[12] !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour ${colour}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const a = x >= channels ? (out[y * stride + x - channels] ?? 0) : 0;
      const b = y > 0 ? (out[(y - 1) * stride + x] ?? 0) : 0;
      const c = x >= channels && y > 0 ? (out[(y - 1) * stride + x - channels] ?? 0) : 0;
      const value = row[x] ?? 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    rgb[i * 3] = out[i * channels] ?? 0;
    rgb[i * 3 + 1] = out[i * channels + 1] ?? 0;
    rgb[i * 3 + 2] = out[i * channels + 2] ?? 0;
  }
  return { width, height, rgb };
}

export interface ImageSummary {
  width: number;
  height: number;
  distinctColours: number;
  /** Share of pixels that differ from the most common colour (the background). */
  nonBackground: number;
}

export function summarise(png: Buffer): ImageSummary {
  const { width, height, rgb } = decodePng(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const key = ((rgb[i] ?? 0) << 16) | ((rgb[i + 1] ?? 0) << 8) | (rgb[i + 2] ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  return { width, height, distinctColours: counts.size, nonBackground: 1 - background / (width * height) };
}

/** Pixels within `tolerance` (per channel) of a colour given as #rrggbb. */
export function countColour(png: Buffer, hex: string, tolerance = 40): number {
  const { rgb } = decodePng(png);
  const r = parseInt(hex.slice(1, 3), 16);
  const g = parseInt(hex.slice(3, 5), 16);
  const b = parseInt(hex.slice(5, 7), 16);
  let n = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    if (
      Math.abs((rgb[i] ?? 0) - r) <= tolerance &&
      Math.abs((rgb[i + 1] ?? 0) - g) <= tolerance &&
      Math.abs((rgb[i + 2] ?? 0) - b) <= tolerance
    )
      n += 1;
  }
  return n;
}

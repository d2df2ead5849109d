/**
 * Writes the app icon, assets/icon.svg and assets/icon.png (512×512), from one description of the
 * glyph: a house with a hub in it. Dependency-free (PNG written with node:zlib) so it runs anywhere:
 * `npx tsx scripts/generate-icon.ts`. The outputs are committed; run this again after changing the glyph.
 */
import { writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 512;
const BLUE: Rgb = [0x25, 0x63, 0xeb];
const WHITE: Rgb = [0xff, 0xff, 0xff];

type Rgb = [number, number, number];
type Shape =
  | { kind: 'rounded-rect'; x: number; y: number; w: number; h: number; r: number; fill: Rgb }
  | { kind: 'triangle'; points: [number, number][]; fill: Rgb }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: Rgb };

/** Painted in order: background, house (roof and walls), hub. */
const GLYPH: Shape[] = [
  { kind: 'rounded-rect', x: 32, y: 32, w: 448, h: 448, r: 96, fill: BLUE },
  {
    kind: 'triangle',
    points: [
      [256, 104],
      [400, 240],
      [112, 240],
    ],
    fill: WHITE,
  },
  { kind: 'rounded-rect', x: 152, y: 232, w: 208, h: 168, r: 0, fill: WHITE },
  { kind: 'circle', cx: 256, cy: 316, r: 40, fill: BLUE },
  { kind: 'circle', cx: 256, cy: 316, r: 18, fill: WHITE },
];

function inside(shape: Shape, x: number, y: number): boolean {
  switch (shape.kind) {
    case 'circle':
      return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2;
    case 'rounded-rect': {
      const { x: left, y: top, w, h, r } = shape;
      if (x < left || x > left + w || y < top || y > top + h) return false;
      const cx = Math.min(Math.max(x, left + r), left + w - r);
      const cy = Math.min(Math.max(y, top + r), top + h - r);
      return (x - cx) ** 2 + (y - cy) ** 2 <= r ** 2;
    }
    case 'triangle': {
      const [[ax, ay], [bx, by], [cx, cy]] = shape.points as [[number, number], [number, number], [number, number]];
      const side = (px: number, py: number, qx: number, qy: number) => (qx - px) * (y - py) - (qy - py) * (x - px);
      const d1 = side(ax, ay, bx, by);
      const d2 = side(bx, by, cx, cy);
      const d3 = side(cx, cy, ax, ay);
      return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
    }
  }
}

/** RGBA pixels, anti-aliased with 4×4 samples per pixel. */
function rasterise(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  const samples = 4;
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let [r, g, b, covered] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const top = GLYPH.findLast((shape) => inside(shape, px + (sx + 0.5) / samples, py + (sy + 0.5) / samples));
          if (!top) continue;
          r += top.fill[0];
          g += top.fill[1];
          b += top.fill[2];
          covered++;
        }
      }
      const offset = (py * SIZE + px) * 4;
      // Colour averaged over the covered samples, coverage in alpha (PNG alpha is not premultiplied).
      if (covered > 0) pixels.set([r / covered, g / covered, b / covered].map(Math.round), offset);
      pixels[offset + 3] = Math.round((covered * 255) / (samples * samples));
    }
  }
  return pixels;
}

function png(rgba: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter method extensions, no interlace
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) rgba.copy(rows, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4); // filter 0 per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function svg(): string {
  const hex = ([r, g, b]: Rgb) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const elements = GLYPH.map((shape) => {
    switch (shape.kind) {
      case 'rounded-rect':
        return `<rect x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" rx="${shape.r}" fill="${hex(shape.fill)}"/>`;
      case 'triangle':
        return `<path d="M${shape.points.map(([x, y]) => `${x} ${y}`).join(' L')} Z" fill="${hex(shape.fill)}"/>`;
      case 'circle':
        return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${hex(shape.fill)}"/>`;
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">\n  <title>Hubdesk</title>\n  ${elements.join('\n  ')}\n</svg>\n`;
}

const assets = new URL('../assets/', import.meta.url);
writeFileSync(new URL('icon.svg', assets), svg());
writeFileSync(new URL('icon.png', assets), png(rasterise()));
process.stdout.write('wrote assets/icon.svg and assets/icon.png\n');

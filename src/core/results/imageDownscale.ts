import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** What a model can take in one image: some reject sides over 8000 px, most work best far below. */
export interface ImageLimits {
  maxSide: number;
  maxBytes: number;
}

export const MODEL_IMAGE_LIMITS: ImageLimits = { maxSide: 2000, maxBytes: 1_000_000 };

export interface FittedImage {
  data: Uint8Array;
  mimeType: string;
  width?: number;
  height?: number;
  /** Set when the image was changed, saying how, for the model and the person. */
  note?: string;
}

interface Bitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  pixels: Uint8Array;
}

/**
 * Makes an image fit the limits: scaled down (area average, so text stays legible) until no side
 * exceeds maxSide, then re-encoded, as JPEG if PNG is too large, at lower quality and smaller
 * size until it fits. Images already within the limits are returned untouched.
 */
export function fitImage(data: Uint8Array, mimeType: string, limits: ImageLimits = MODEL_IMAGE_LIMITS): FittedImage {
  return fitImageToEach(data, mimeType, [limits])[0];
}

/**
 * The same image fitted to several limits (the model's and the activity thumbnail's) from at most
 * one decode of its pixels.
 */
export function fitImageToEach(data: Uint8Array, mimeType: string, limitsList: ImageLimits[]): FittedImage[] {
  const size = imageSize(data, mimeType);
  let bitmap: Bitmap | null | undefined;
  const decoded = () => (bitmap === undefined ? (bitmap = decode(data, mimeType) ?? null) : bitmap);
  return limitsList.map(limits => fitOne(data, mimeType, size, decoded, limits));
}

function fitOne(
  data: Uint8Array,
  mimeType: string,
  size: { width: number; height: number } | undefined,
  decoded: () => Bitmap | null,
  limits: ImageLimits,
): FittedImage {
  if (size && size.width <= limits.maxSide && size.height <= limits.maxSide && data.length <= limits.maxBytes) {
    return { data, mimeType, ...size };
  }
  const bitmap = decoded();
  if (!bitmap) {
    if (data.length <= limits.maxBytes && size && Math.max(size.width, size.height) <= limits.maxSide) return { data, mimeType, ...size };
    return { data, mimeType, ...size, note: `The ${mimeType} image could not be resized here and may exceed what the model accepts.` };
  }
  const original = `${bitmap.width}x${bitmap.height}`;
  let scale = Math.min(1, limits.maxSide / Math.max(bitmap.width, bitmap.height));
  for (let attempt = 0; attempt < 8; attempt++) {
    const resized = scale < 1 ? resize(bitmap, Math.max(1, Math.floor(bitmap.width * scale)), Math.max(1, Math.floor(bitmap.height * scale))) : bitmap;
    const candidates: [Uint8Array, string][] = [];
    if (mimeType === 'image/png') candidates.push([PNG.sync.write(toPng(resized)), 'image/png']);
    const raw = { data: resized.pixels, width: resized.width, height: resized.height };
    for (const quality of [85, 70, 55]) candidates.push([jpeg.encode(raw, quality).data, 'image/jpeg']);
    for (const [encoded, encodedType] of candidates) {
      if (encoded.length <= limits.maxBytes) {
        const changes = [];
        if (resized !== bitmap) changes.push(`scaled from ${original} to ${resized.width}x${resized.height}`);
        if (encodedType !== mimeType) changes.push(`re-encoded as JPEG`);
        return {
          data: encoded,
          mimeType: encodedType,
          width: resized.width,
          height: resized.height,
          note:
            `Image ${changes.join(' and ')} to fit model limits (${limits.maxSide} px a side, ${Math.round(limits.maxBytes / 1000)} KB). ` +
            `Coordinates in it are ${(resized.width / bitmap.width).toFixed(3)}x the page's.`,
        };
      }
    }
    scale *= 0.75;
  }
  return { data, mimeType, ...size, note: 'The image could not be made small enough for the model.' };
}

/** Width and height from the file header, without decoding the pixels. */
export function imageSize(data: Uint8Array, mimeType: string): { width: number; height: number } | undefined {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (mimeType === 'image/png' && view.length >= 24 && view.readUInt32BE(12) === 0x49484452) {
    return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  }
  if (mimeType === 'image/jpeg') {
    let offset = 2;
    while (offset + 9 < view.length) {
      if (view[offset] !== 0xff) return undefined;
      const marker = view[offset + 1];
      const length = view.readUInt16BE(offset + 2);
      // Start-of-frame markers carry the size; C4 (DHT), C8 and CC are not frames.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: view.readUInt16BE(offset + 7), height: view.readUInt16BE(offset + 5) };
      }
      offset += 2 + length;
    }
  }
  if (mimeType === 'image/webp') return webpSize(view);
  if (mimeType === 'image/gif' && view.length >= 10 && view.toString('latin1', 0, 4) === 'GIF8') {
    return { width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
  }
  return undefined;
}

/** A WebP's size from its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpSize(view: Buffer): { width: number; height: number } | undefined {
  if (view.length < 30 || view.toString('latin1', 0, 4) !== 'RIFF' || view.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const chunk = view.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && view[23] === 0x9d && view[24] === 0x01 && view[25] === 0x2a) {
    return { width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && view[20] === 0x2f) {
    const bits = view.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: view.readUIntLE(24, 3) + 1, height: view.readUIntLE(27, 3) + 1 };
  return undefined;
}

function decode(data: Uint8Array, mimeType: string): Bitmap | undefined {
  try {
    if (mimeType === 'image/png') {
      const png = PNG.sync.read(Buffer.from(data));
      return { width: png.width, height: png.height, pixels: png.data };
    }
    if (mimeType === 'image/jpeg') {
      const image = jpeg.decode(data, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024, maxResolutionInMP: 200 });
      return { width: image.width, height: image.height, pixels: image.data };
    }
  } catch {
    // Not decodable here: the caller passes it on as it is.
  }
  return undefined;
}

function toPng(bitmap: Bitmap): PNG {
  const png = new PNG({ width: bitmap.width, height: bitmap.height });
  png.data = Buffer.from(bitmap.pixels.buffer, bitmap.pixels.byteOffset, bitmap.pixels.byteLength);
  return png;
}

/** Area-average downscale: each target pixel is the mean of the source pixels it covers. */
export function resize(source: Bitmap, width: number, height: number): Bitmap {
  const pixels = new Uint8Array(width * height * 4);
  const xEdges = edges(source.width, width);
  const yEdges = edges(source.height, height);
  const sums = new Float64Array(width * 4);
  for (let ty = 0; ty < height; ty++) {
    sums.fill(0);
    const y0 = yEdges[ty];
    const y1 = yEdges[ty + 1];
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * source.width * 4;
      for (let tx = 0; tx < width; tx++) {
        const x0 = xEdges[tx];
        const x1 = xEdges[tx + 1];
        let r = 0,
          g = 0,
          b = 0,
          a = 0;
        for (let sx = x0; sx < x1; sx++) {
          const i = row + sx * 4;
          r += source.pixels[i];
          g += source.pixels[i + 1];
          b += source.pixels[i + 2];
          a += source.pixels[i + 3];
        }
        const o = tx * 4;
        sums[o] += r;
        sums[o + 1] += g;
        sums[o + 2] += b;
        sums[o + 3] += a;
      }
    }
    for (let tx = 0; tx < width; tx++) {
      const count = (xEdges[tx + 1] - xEdges[tx]) * (y1 - y0);
      const o = tx * 4;
      const t = (ty * width + tx) * 4;
      pixels[t] = Math.round(sums[o] / count);
      pixels[t + 1] = Math.round(sums[o + 1] / count);
      pixels[t + 2] = Math.round(sums[o + 2] / count);
      pixels[t + 3] = Math.round(sums[o + 3] / count);
    }
  }
  return { width, height, pixels };
}

/** Source boundaries for each target cell; every cell covers at least one source pixel. */
function edges(sourceLength: number, targetLength: number): number[] {
  const result: number[] = [];
  for (let i = 0; i <= targetLength; i++) result.push(Math.min(sourceLength, Math.max(i, Math.round((i * sourceLength) / targetLength))));
  return result;
}

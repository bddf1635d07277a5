import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stripAnsi } from './ansi';
import { withoutErrorHeading } from './resultText';

export { resultText } from './resultText';
import { fitImage, fitImageToEach, ImageLimits, MODEL_IMAGE_LIMITS } from './imageDownscale';

/** A tool result part, free of `vscode`: the glue turns these into language-model parts. */
export type BridgePart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; mimeType: string; data: Uint8Array };

/**
 * Turns an MCP tool result into what the model should read: text without terminal colours, images
 * that fit model limits, other content described in words, and a failure that says it failed.
 */
export function convertToolResult(toolName: string, result: CallToolResult, limits: ImageLimits = MODEL_IMAGE_LIMITS): BridgePart[] {
  const parts: BridgePart[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push({ kind: 'text', text: stripAnsi(item.text) });
        break;
      case 'image': {
        const fitted = fitImageContent(item, limits);
        parts.push({ kind: 'image', mimeType: fitted.mimeType, data: fitted.data });
        if (fitted.note) parts.push({ kind: 'text', text: fitted.note });
        break;
      }
      case 'resource': {
        const resource = item.resource as { uri: string; text?: string; mimeType?: string };
        const described = `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}`;
        parts.push({ kind: 'text', text: resource.text !== undefined ? stripAnsi(resource.text) : described });
        break;
      }
      case 'resource_link':
        parts.push({ kind: 'text', text: `Link: ${item.uri}${item.description ? ` — ${item.description}` : ''}` });
        break;
      default:
        parts.push({ kind: 'text', text: `(${item.type} content omitted)` });
    }
  }
  if (result.isError) {
    const firstText = parts.findIndex(part => part.kind === 'text');
    const detail = firstText >= 0 ? withoutErrorHeading((parts[firstText] as { text: string }).text) : 'no reason was given';
    const headline = `The tool ${toolName} failed: ${detail}`;
    if (firstText >= 0) parts[firstText] = { kind: 'text', text: headline };
    else parts.unshift({ kind: 'text', text: headline });
  }
  if (!parts.length) parts.push({ kind: 'text', text: `${toolName} finished with no output.` });
  return parts;
}

/** A finished call's result, made once for every consumer: both doors and the activity list. */
export interface FinishedResult {
  /** Text without terminal colours, images fitted to model limits (with a note when changed), the rest as it came. */
  result: CallToolResult;
  /** A small JPEG or PNG of the first image, as a data: URL, for the activity list. */
  thumbnail?: string;
  /** For a failed call: its reason in one line, for the activity list. */
  errorLine?: string;
}

const THUMBNAIL_LIMITS: ImageLimits = { maxSide: 160, maxBytes: 40_000 };

/**
 * Finishes a result once on its way back: terminal colours stripped, each image decoded at most
 * once and fitted both to model limits and to a thumbnail, the error's reason taken out.
 */
export function finishResult(result: CallToolResult, options: { thumbnail?: boolean; limits?: ImageLimits } = {}): FinishedResult {
  const limits = options.limits ?? MODEL_IMAGE_LIMITS;
  const content: CallToolResult['content'] = [];
  let thumbnail: string | undefined;
  // Only when someone shows it (the panel's store): decoding and shrinking an image costs a call time.
  let wantThumbnail = options.thumbnail ?? false;
  for (const item of result.content ?? []) {
    if (item.type === 'text') content.push({ ...item, text: stripAnsi(item.text) });
    else if (item.type === 'image') {
      const original = Buffer.from(item.data, 'base64');
      const [model, small] = fitImageToEach(original, item.mimeType, wantThumbnail ? [limits, THUMBNAIL_LIMITS] : [limits]);
      wantThumbnail = false;
      // Within limits the image goes on untouched: the original text, no re-encoding.
      content.push(model.data !== original ? { ...item, data: Buffer.from(model.data).toString('base64'), mimeType: model.mimeType } : item);
      if (model.note) content.push({ type: 'text', text: model.note });
      if (small) thumbnail = `data:${small.mimeType};base64,${Buffer.from(small.data).toString('base64')}`;
    } else content.push(item);
  }
  const finished: CallToolResult = { ...result, content };
  return { result: finished, thumbnail, errorLine: result.isError ? errorLineOf(finished) : undefined };
}


function errorLineOf(result: CallToolResult): string {
  const first = (result.content ?? []).find(part => part.type === 'text');
  return first && first.type === 'text' ? withoutErrorHeading(first.text).split('\n')[0].slice(0, 300) : 'failed';
}

/** An MCP image item fitted to the limits, for both doors: `changed` is false when it was already within them. */
function fitImageContent(
  item: { data: string; mimeType: string },
  limits: ImageLimits,
): { data: Uint8Array; mimeType: string; note?: string; changed: boolean } {
  const original = Buffer.from(item.data, 'base64');
  const fitted = fitImage(original, item.mimeType, limits);
  return { data: fitted.data, mimeType: fitted.mimeType, note: fitted.note, changed: fitted.data !== original };
}

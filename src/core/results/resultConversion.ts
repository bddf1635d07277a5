import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stripAnsi } from './ansi';
import { fitImage, ImageLimits, MODEL_IMAGE_LIMITS } from './imageDownscale';

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
        parts.push({ kind: 'text', text: resource.text !== undefined ? stripAnsi(resource.text) : `Resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}` });
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
    const detail = firstText >= 0 ? (parts[firstText] as { text: string }).text.replace(/^#+\s*Error\s*\n/, '') : 'no reason was given';
    const headline = `The tool ${toolName} failed: ${detail}`;
    if (firstText >= 0) parts[firstText] = { kind: 'text', text: headline };
    else parts.unshift({ kind: 'text', text: headline });
  }
  if (!parts.length) parts.push({ kind: 'text', text: `${toolName} finished with no output.` });
  return parts;
}

/**
 * The same care for the MCP door, which hands results on as MCP: text without terminal colours,
 * images fitted to model limits (with a note when changed), everything else as it came.
 */
export function sanitizeMcpResult(result: CallToolResult, limits: ImageLimits = MODEL_IMAGE_LIMITS): CallToolResult {
  const content: CallToolResult['content'] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') content.push({ ...item, text: stripAnsi(item.text) });
    else if (item.type === 'image') {
      const fitted = fitImageContent(item, limits);
      // Within limits the image comes back untouched: pass the original text on, no re-encoding.
      content.push(fitted.changed ? { ...item, data: Buffer.from(fitted.data).toString('base64'), mimeType: fitted.mimeType } : item);
      if (fitted.note) content.push({ type: 'text', text: fitted.note });
    } else content.push(item);
  }
  return { ...result, content };
}

/** An MCP image item fitted to the limits, for both doors: `changed` is false when it was already within them. */
function fitImageContent(item: { data: string; mimeType: string }, limits: ImageLimits): { data: Uint8Array; mimeType: string; note?: string; changed: boolean } {
  const original = Buffer.from(item.data, 'base64');
  const fitted = fitImage(original, item.mimeType, limits);
  return { data: fitted.data, mimeType: fitted.mimeType, note: fitted.note, changed: fitted.data !== original };
}

// Bodies and answer of the Markdown file routes (/files/{path}), written by hand: the served OpenAPI document leaves
// these routes out (a path with slashes cannot be expressed in it), so the generated schema.ts has no types for them.
// They follow the service's MarkdownFileWrite, MarkdownPatch, MarkdownAppend, MarkdownEdit and MarkdownFileChange.
import type { components } from "./schema.js";

/** One text edit of a patch: `old_text` must occur exactly once in the file. */
export interface MarkdownEdit {
  old_text: string;
  new_text: string;
}

/** The body of `POST /files/{path}:patch`: edits applied in order. */
export interface MarkdownPatch {
  edits: MarkdownEdit[];
}

/** The body of `POST /files/{path}:append`: Markdown lines to add to the file. */
export interface MarkdownAppend {
  text: string;
}

/** One change a file write made: its line, created/updated/deleted/block_updated, the memory id or block, seq. */
export interface MarkdownFileChange {
  line?: number;
  action?: string;
  target?: string;
  seq?: number;
}

/** The answer of PUT, :patch and :append on a file. */
export interface MarkdownFileWrite {
  path: string;
  /** :patch: the number of text edits applied; PUT and :append: the number of changes */
  applied?: number;
  /** The chain events made, in order */
  changes?: MarkdownFileChange[];
  file?: components["schemas"]["MarkdownFileInfo"] | null;
}

/**
 * Where JSON text stops parsing, and why in words: for the window's edited replay body and for the
 * forwarder's 400 "not valid JSON" (docs/webhooks-app.md, "Refused intakes keep their bytes").
 * JSON.parse says whether text is JSON; its messages name no position for some errors, so the position
 * comes from jsonc-parser's strict scan (no comments, no trailing commas), which is run only on text
 * JSON.parse refused.
 */
import { parse, type ParseError, type ParseErrorCode, printParseErrorCode } from 'jsonc-parser';

export interface JsonSyntaxError {
  /** Index in the text (UTF-16 code units) where it stops parsing. */
  index: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units from the line's start. */
  column: number;
  /** In words: "a value was expected". */
  problem: string;
}

/** The first syntax error of text JSON.parse refused; undefined when the scan finds none. */
export function firstJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  const before = text.slice(0, first.offset);
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  return { index: first.offset, line, column: first.offset - before.lastIndexOf('\n'), problem: describeError(first.error) };
}

const ERRORS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'not a number',
  PropertyNameExpected: 'a property name (in double quotes) was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: '":" was expected',
  CommaExpected: '"," was expected',
  CloseBraceExpected: '"}" was expected',
  CloseBracketExpected: '"]" was expected',
  EndOfFileExpected: 'nothing more was expected',
  UnexpectedEndOfString: 'the string does not end',
  InvalidEscapeCharacter: 'an invalid escape',
  InvalidCharacter: 'a character not allowed in a string',
};

function describeError(code: ParseErrorCode): string {
  return ERRORS[printParseErrorCode(code)] ?? 'not JSON';
}

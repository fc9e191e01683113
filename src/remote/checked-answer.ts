/**
 * Reads a remote answer checked against its TypeBox schema (the contract's response schemas, one per
 * answer): a body that is not JSON at all (a proxy's error page) is not an answer; JSON the schema refuses
 * is an answer off the contract, with the schema's reasons, each naming the field.
 */
import { valueAt } from '../contract/json-pointer.js';
import { Compile, type Static, type TSchema } from '../vendor/typebox.js';

/**
 * A JSON answer the response schema refuses: what is wrong with it, each naming the field. When every
 * problem lies inside items of its list (`listKey`), `items` holds each bad item's problems by its index and
 * `answer` the parsed answer, whose other items are sound.
 */
export class OffContractAnswer {
  constructor(
    readonly problems: readonly string[],
    readonly items?: ReadonlyMap<number, readonly string[]>,
    readonly answer?: unknown,
  ) {}
}

/** A row whose answer the contract refuses: rejected with the reasons, never written, and not retried. */
export function offContractRejection(path: string, problems: readonly string[]) {
  return {
    ok: false as const,
    errors: [{ path: '', message: `remote ${path} answered off the contract: ${problems.join('; ')}` }],
    reason: 'remote: answer off the contract',
  };
}

interface RawError {
  readonly instancePath: string;
  readonly message: string;
}

/** Problems listed at most, so that an answer wrong everywhere does not make a reject reason of megabytes. */
const MAX_PROBLEMS = 10;

export class CheckedAnswer<S extends TSchema> {
  private readonly check: ReturnType<typeof Compile>;
  /** The check of one item of the answer's list `listKey`, when it has one. */
  private readonly itemCheck: ReturnType<typeof Compile> | undefined;

  /**
   * `fieldName` names a field of the answer by its path, where the path alone would not (a column's
   * index); `listKey` names the answer's list whose items are checked one by one when the answer fails.
   */
  constructor(
    schema: S,
    private readonly fieldName: (instancePath: string) => string = (path) => path,
    private readonly listKey?: string,
  ) {
    this.check = Compile(schema);
    const { properties } = schema as { properties?: Record<string, { items?: TSchema }> };
    const items = listKey === undefined ? undefined : properties?.[listKey]?.items;
    this.itemCheck = items === undefined ? undefined : Compile(items);
  }

  /** The answer; undefined when the body is not a JSON object; OffContractAnswer when the schema refuses it. */
  read(body: Buffer): Static<S> | OffContractAnswer | undefined {
    let answer: unknown;
    try {
      answer = JSON.parse(body.toString());
    } catch {
      return undefined;
    }
    if (typeof answer !== 'object' || answer === null) return undefined;
    if (this.check.Check(answer)) return answer as Static<S>;
    const items = this.itemProblems(answer as Record<string, unknown>);
    if (items !== undefined) return new OffContractAnswer([...items.values()].flat(), items, answer);
    const errors = (this.check.Errors(answer) as readonly RawError[]).slice(0, MAX_PROBLEMS);
    return new OffContractAnswer(errors.map((error) => this.problem(answer, error)));
  }

  private problem(answer: unknown, error: RawError, at = ''): string {
    const field = this.fieldName(`${at}${error.instancePath}`) || '(the answer)';
    return `${field} ${error.message}${shownValue(answer, error)}`;
  }

  /**
   * Each bad item's problems by its index, when the answer is sound but for some items of its list;
   * undefined otherwise.
   */
  private itemProblems(answer: Record<string, unknown>) {
    const { listKey, itemCheck } = this;
    if (listKey === undefined || itemCheck === undefined) return undefined;
    const list = answer[listKey];
    if (!Array.isArray(list) || !this.check.Check({ ...answer, [listKey]: [] })) return undefined;
    const items = new Map<number, string[]>();
    list.forEach((item, index) => {
      if (itemCheck.Check(item)) return;
      const errors = (itemCheck.Errors(item) as readonly RawError[]).slice(0, MAX_PROBLEMS);
      items.set(
        index,
        errors.map((error) => this.problem(item, error, `/${listKey}/${index}`)),
      );
    });
    return items.size === 0 ? undefined : items;
  }
}

/** The refused value, when it is a number or text: ` (is 1234.56)`. */
function shownValue(answer: unknown, error: RawError): string {
  const value = valueAt(answer, error.instancePath);
  return typeof value === 'number' || typeof value === 'string' ? ` (is ${JSON.stringify(value)})` : '';
}

/**
 * Reads a remote answer checked against its TypeBox schema (the contract's response schemas, one per
 * answer): a body that is not JSON at all (a proxy's error page) is not an answer; JSON the schema refuses
 * is an answer off the contract, with the schema's reasons, each naming the field.
 */
import { valueAt } from '../contract/json-pointer.js';
import { Compile, type Static, type TSchema } from '../vendor/typebox.js';

/** A JSON answer the response schema refuses: what is wrong with it, each naming the field. */
export class OffContractAnswer {
  constructor(readonly problems: readonly string[]) {}
}

interface RawError {
  readonly instancePath: string;
  readonly message: string;
}

/** Problems listed at most, so that an answer wrong everywhere does not make a reject reason of megabytes. */
const MAX_PROBLEMS = 10;

export class CheckedAnswer<S extends TSchema> {
  private readonly check: ReturnType<typeof Compile>;

  /** `fieldName` names a field of the answer by its path, where the path alone would not (a column's index). */
  constructor(
    schema: S,
    private readonly fieldName: (instancePath: string) => string = (path) => path,
  ) {
    this.check = Compile(schema);
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
    const problems: string[] = [];
    for (const error of this.check.Errors(answer) as Iterable<RawError>) {
      if (problems.length === MAX_PROBLEMS) break;
      const field = this.fieldName(error.instancePath) || '(the answer)';
      problems.push(`${field} ${error.message}${shownValue(answer, error)}`);
    }
    return new OffContractAnswer(problems);
  }
}

/** The refused value, when it is a number or text: ` (is 1234.56)`. */
function shownValue(answer: unknown, error: RawError): string {
  const value = valueAt(answer, error.instancePath);
  return typeof value === 'number' || typeof value === 'string' ? ` (is ${JSON.stringify(value)})` : '';
}

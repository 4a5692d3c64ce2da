import { describe, expect, it } from "vitest";
import { ENV, readEnv } from "../../../lib/core/env";
import { gitLocationEnv, PLAIN_FLAG_ENV, PLAIN_TEXT_ENV, readPlainEnv, readPlainFlag } from "../../../lib/core/env-plain";

const SAMPLES = [undefined, "", "0", "1", "yes", "file:./x.db", "postgresql://u@h/db", " spaced value ", "ünïcode/路径"];

describe("variables read without zod", () => {
  it("are declared in ENV and read exactly as readEnv reads them", () => {
    for (const name of PLAIN_TEXT_ENV) {
      expect(ENV[name], name).toBeDefined();
      for (const v of SAMPLES) expect(readPlainEnv(name, { [name]: v }), `${name}=${v}`).toEqual(readEnv(name, { [name]: v }));
    }
  });

  it("flags accept and refuse what readEnv does, with its message", () => {
    for (const name of PLAIN_FLAG_ENV) {
      for (const v of SAMPLES) {
        let expected: unknown;
        try {
          expected = readEnv(name, { [name]: v });
        } catch (e) {
          expect(() => readPlainFlag(name, { [name]: v })).toThrow((e as Error).message);
          continue;
        }
        expect(readPlainFlag(name, { [name]: v }), `${name}=${v}`).toEqual(expected);
      }
    }
  });

  it("name only the git variables that are set", () => {
    expect(gitLocationEnv({ GIT_DIR: "/x", GIT_WORK_TREE: "", PATH: "/bin" })).toEqual({ GIT_DIR: "/x" });
  });
});

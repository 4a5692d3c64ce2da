import path from "node:path";
import { describe, expect, it } from "vitest";
import { addProjectInput } from "../../../lib/projects/add-project";
import { fetchIntervalSeconds } from "../../../lib/projects/fetch-scheduler";
import { checkoutDirFor, gitMessage, isSafeBranch, nameFromUrl, remotesRoot, remoteUrlProblem } from "../../../lib/projects/remote";

describe("remote URL check", () => {
  it.each([
    "https://github.com/acme/orders.git",
    "https://git.example.com:8443/group/sub/repo",
    "ssh://git@github.com/acme/orders.git",
    "ssh://git@host:2222/acme/orders.git",
    "git@github.com:acme/orders.git",
    "host.example.com:repos/orders.git",
    "file:///srv/git/orders.git",
    "/srv/git/orders.git",
  ])("accepts %s", (url) => {
    expect(remoteUrlProblem(url)).toBeNull();
  });

  it.each([
    ["http://example.com/repo.git", /not accepted/],
    ["git://example.com/repo.git", /not accepted/],
    ["ext::sh -c touch% /tmp/pwned", /spaces/],
    ["ext::foo", /must be https/],
    ["-uhack", /must be https/],
    ["relative/path", /must be https/],
    ["./repo", /must be https/],
    ["https://user:pw@example.com/r.git", /credentials/],
    ["https://token@example.com/r.git", /credentials/],
    ["ssh://git:pw@example.com/r.git", /credentials/],
    ["user:pw@host:r.git", /credentials/],
    ["https://example.com/r.git?access_token=x", /query/],
    ["https://example.com/r.git#frag", /query/],
    ["file://otherhost/srv/r.git", /this machine/],
    ["https://exa mple.com/r", /spaces/],
    ["https://example.com/r\n", /control/],
  ])("refuses %s", (url, why) => {
    expect(remoteUrlProblem(url)).toMatch(why);
  });

  it("names the field in the input's errors", () => {
    const res = addProjectInput.safeParse({ url: "https://me:secret@example.com/r.git" });
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]).toMatchObject({ path: ["url"], message: expect.stringMatching(/credentials/) });
    expect(addProjectInput.safeParse({}).error?.issues[0]?.path).toEqual(["path"]);
    expect(addProjectInput.safeParse({ path: "/x", url: "/y.git" }).error?.issues[0]?.path).toEqual(["url"]);
    expect(addProjectInput.safeParse({ path: "/x", branch: "main" }).error?.issues[0]?.path).toEqual(["branch"]);
    expect(addProjectInput.safeParse({ url: "/y.git", branch: "release/1.2" }).success).toBe(true);
  });
});

describe("branch names", () => {
  it.each(["main", "release/1.2", "feature/JIRA-123_x", "v1.0"])("accepts %s", (b) => expect(isSafeBranch(b)).toBe(true));
  it.each(["", "-f", "../x", "a/../b", "a//b", "/a", "a/", ".hidden", "a/.b", "x.lock", "a..b", "a@{1}", "HEAD", "a b", "a~1", "a^", "a:b", "ref.", "a\\b"])("refuses %j", (b) => expect(isSafeBranch(b)).toBe(false));
});

describe("checkout folders", () => {
  it("stay directly under <dataDir>/remotes whatever the URL says", () => {
    for (const url of ["/srv/../../etc", "https://example.com/..", "git@h:..", "file:///", "https://example.com/a/%2e%2e", "/srv/git/Orders Repo.git"]) {
      const dir = checkoutDirFor(url);
      expect(path.dirname(dir)).toBe(remotesRoot());
      expect(path.basename(dir)).toMatch(/^[a-z0-9_-]+-[0-9a-f]{12}$/);
    }
  });

  it("are stable per remote and branch", () => {
    expect(checkoutDirFor("/srv/orders.git")).toBe(checkoutDirFor("/srv/orders.git"));
    expect(checkoutDirFor("/srv/orders.git", "dev")).not.toBe(checkoutDirFor("/srv/orders.git"));
    expect(path.basename(checkoutDirFor("git@github.com:acme/orders.git"))).toMatch(/^orders-/);
    expect(nameFromUrl("git@github.com:acme/orders.git")).toBe("orders");
  });
});

describe("scheduler settings and git messages", () => {
  it("reads WORKBENCH_FETCH_INTERVAL", () => {
    expect(fetchIntervalSeconds(undefined)).toBe(300);
    expect(fetchIntervalSeconds("0")).toBe(0);
    expect(fetchIntervalSeconds("60")).toBe(60);
    expect(() => fetchIntervalSeconds("-1")).toThrow(/WORKBENCH_FETCH_INTERVAL/);
    expect(() => fetchIntervalSeconds("5m")).toThrow(/WORKBENCH_FETCH_INTERVAL/);
  });

  it("keeps git's fatal lines", () => {
    expect(gitMessage(new Error("Cloning into 'x'...\nfatal: repository '/x' does not exist\n"))).toBe("fatal: repository '/x' does not exist");
  });
});

import { describe, expect, it } from "vitest";
import { formatTimestamp, relativeTime, timestampText } from "../../../lib/core/time-format";

describe("formatTimestamp: one format for every time the Workbench shows", () => {
  it("shows an instant as day, month, year and UTC time, keeping the exact ISO value", () => {
    expect(formatTimestamp("2026-02-05T09:12:00Z")).toEqual({ text: "5 Feb 2026, 09:12 UTC", iso: "2026-02-05T09:12:00.000Z", dateOnly: false });
    expect(formatTimestamp("2026-12-31T23:59:59.999Z")?.text).toBe("31 Dec 2026, 23:59 UTC");
  });

  it("reads an offset and shows the same instant in UTC", () => {
    expect(formatTimestamp("2026-02-05T11:12:00+02:00")).toMatchObject({ text: "5 Feb 2026, 09:12 UTC", iso: "2026-02-05T09:12:00.000Z" });
    // Across midnight, the UTC day is the one shown.
    expect(formatTimestamp("2026-03-01T00:30:00+01:00")?.text).toBe("28 Feb 2026, 23:30 UTC");
  });

  it("takes epoch milliseconds and Dates (a save time, a job's clock)", () => {
    const ms = Date.UTC(2026, 5, 10, 17, 46, 30);
    expect(formatTimestamp(ms)).toMatchObject({ text: "10 Jun 2026, 17:46 UTC", iso: "2026-06-10T17:46:30.000Z" });
    expect(formatTimestamp(new Date(ms))?.text).toBe("10 Jun 2026, 17:46 UTC");
  });

  it("reads a date-time without a zone as UTC, whatever the reader's zone, so server and browser agree", () => {
    expect(formatTimestamp("2026-02-05T09:12:00")).toMatchObject({ text: "5 Feb 2026, 09:12 UTC", iso: "2026-02-05T09:12:00.000Z" });
    expect(formatTimestamp("2026-02-05 09:12")).toMatchObject({ text: "5 Feb 2026, 09:12 UTC", iso: "2026-02-05T09:12:00.000Z" });
  });

  it("shows a date without a time as a date, never inventing midnight", () => {
    expect(formatTimestamp("2026-02-11")).toEqual({ text: "11 Feb 2026", iso: "2026-02-11", dateOnly: true });
    expect(formatTimestamp("2026-02-30")).toBeNull();
  });

  it("answers null for what is not a time, and timestampText shows it as written", () => {
    for (const v of ["", "soon", "2026-13-01T00:00:00Z", null, undefined, Number.NaN]) expect(formatTimestamp(v)).toBeNull();
    expect(timestampText("yesterday-ish")).toBe("yesterday-ish");
    expect(timestampText("2026-02-05T09:12:00Z")).toBe("5 Feb 2026, 09:12 UTC");
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-02-10T12:00:00Z");
  it("says how long ago for the last 30 days", () => {
    expect(relativeTime("2026-02-10T11:59:30Z", now)).toBe("just now");
    expect(relativeTime("2026-02-10T11:48:00Z", now)).toBe("12 min ago");
    expect(relativeTime("2026-02-10T09:00:00Z", now)).toBe("3 h ago");
    expect(relativeTime("2026-02-05T12:00:00Z", now)).toBe("5 d ago");
    // A clock a little ahead of the server's is not "in the future".
    expect(relativeTime("2026-02-10T12:00:05Z", now)).toBe("just now");
  });

  it("falls back to the one timestamp format after 30 days, and leaves a non-time as written", () => {
    expect(relativeTime("2025-12-01T08:05:00Z", now)).toBe("1 Dec 2025, 08:05 UTC");
    expect(relativeTime("never", now)).toBe("never");
  });
});

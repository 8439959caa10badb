import { describe, expect, it } from "vitest";
import { AllOfFilter, RoleFilter, Signal, SpecFilter, TypeFilter, asFilter, field } from "@hooklens/runtime";

class Plan {}

describe("asFilter", () => {
  it("turns a class into a TypeFilter and a function into a SpecFilter", () => {
    expect(asFilter(Plan)).toBeInstanceOf(TypeFilter);
    expect(asFilter(Error)).toBeInstanceOf(TypeFilter);
    expect(asFilter((p: unknown) => p)).toBeInstanceOf(SpecFilter);
    expect(asFilter(function predicate(p: unknown) {
      return p;
    })).toBeInstanceOf(SpecFilter);
  });

  it("returns a Filter unchanged", () => {
    const filter = new SpecFilter(() => true);
    expect(asFilter(filter)).toBe(filter);
  });
});

describe("TypeFilter", () => {
  it("matches primitives for Number, String and Boolean", () => {
    expect(new TypeFilter(Number).matches(3)).toEqual([3]);
    expect(new TypeFilter(String).matches("s")).toEqual(["s"]);
    expect(new TypeFilter(Boolean).matches(false)).toEqual([false]);
  });

  it("matches the values of a Map payload", () => {
    const plan = new Plan();
    expect(new TypeFilter(Plan).matches(new Map([["p", plan]]))).toEqual([plan]);
  });
});

describe("SpecFilter", () => {
  it("a safe filter swallows a throwing predicate as no match", () => {
    const filter = new SpecFilter(() => {
      throw new Error("x");
    }, { safe: true });
    expect(filter.matches(1)).toEqual([]);
  });
});

describe("AllOfFilter and combinators", () => {
  it("AllOfFilter matches the payload once when every filter matches", () => {
    const filter = new AllOfFilter([new TypeFilter(Number), new SpecFilter((p) => (p as number) > 2)]);
    expect(filter.matches(3)).toEqual([3]);
    expect(filter.matches(1)).toEqual([]);
  });

  it("and, or and not combine filters", () => {
    const positive = new SpecFilter((p) => (p as number) > 0);
    const even = new SpecFilter((p) => (p as number) % 2 === 0);
    expect(positive.and(even).test(2)).toBe(true);
    expect(positive.and(even).test(3)).toBe(false);
    expect(positive.or(even).test(-2)).toBe(true);
    expect(positive.not().test(-1)).toBe(true);
  });
});

describe("RoleFilter", () => {
  it("only matches an envelope, never a bare payload", () => {
    const filter = new RoleFilter("planner");
    expect(filter.matches(new Signal({ data: 1, emitterRole: "planner" }))).toEqual([1]);
    expect(filter.matches({ emitterRole: "planner", data: 1 })).toEqual([1]);
    expect(filter.matches(1)).toEqual([]);
  });
});

describe("field references", () => {
  it("compare a dotted path of the payload", () => {
    const payload = { execution: { status: "failed", duration: 2 } };
    expect(field("execution.status").eq("failed").test(payload)).toBe(true);
    expect(field("execution.status").ne("failed").test(payload)).toBe(false);
    expect(field("execution.duration").gt(1).test(payload)).toBe(true);
    expect(field("execution.duration").ge(2).test(payload)).toBe(true);
    expect(field("execution.duration").lt(2).test(payload)).toBe(false);
    expect(field("execution.duration").le(2).test(payload)).toBe(true);
    expect(field("execution.status").isIn(["failed", "cancelled"]).test(payload)).toBe(true);
  });

  it("treat a missing path as no match, even for ne", () => {
    expect(field("a.b").ne("x").test({})).toBe(false);
    expect(field("a.b").eq(undefined).test({ a: null })).toBe(false);
  });

  it("present() needs the field to exist and be neither null nor undefined", () => {
    expect(field("error").present().test({ error: "boom" })).toBe(true);
    expect(field("error").present().test({ error: null })).toBe(false);
    expect(field("error").present().test({})).toBe(false);
  });

  it("read Map entries and primitive properties", () => {
    expect(field("k").eq(1).test(new Map([["k", 1]]))).toBe(true);
    expect(field("length").eq(3).test("abc")).toBe(true);
  });
});

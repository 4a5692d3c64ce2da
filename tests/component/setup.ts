import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// Each test renders into a fresh document body.
afterEach(() => cleanup());

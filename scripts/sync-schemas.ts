import fs from "node:fs";
import path from "node:path";
import { postgresSchemaFrom } from "../lib/db/schema-sync";

const root = path.resolve(import.meta.dirname, "..");
const src = fs.readFileSync(path.join(root, "prisma/sqlite/schema.prisma"), "utf8");
const out = path.join(root, "prisma/postgres/schema.prisma");
fs.writeFileSync(out, postgresSchemaFrom(src));
process.stderr.write(`wrote ${path.relative(root, out)}\n`);

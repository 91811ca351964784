// Compiles every strict input schema (spec/input), every published projection
// (spec/published) and every composed output schema (a JSON file mapping tool
// name to schema, written by "go run ./internal/genpublished -outputs FILE")
// with Ajv in draft 2020-12 strict mode, as an implementation independent of
// the Go validator. Exits non-zero on any failure.
"use strict";

const fs = require("fs");
const path = require("path");
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");

const specDir = path.resolve(__dirname, "..");
const outputsFile = process.argv[2];
if (!outputsFile) {
  console.error("usage: node check.js OUTPUTS.json");
  process.exit(2);
}

// strictRequired is off: it flags the standard "anyOf of required" idiom
// (at least one of several fields) used on purpose by the contract. Every
// other strict-mode check stays on; union types ("type": [..]) are allowed.
function newAjv() {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const failures = [];
let compiled = 0;

function compile(label, schema) {
  try {
    newAjv().compile(schema);
    compiled++;
  } catch (e) {
    failures.push(`${label}: ${e.message}`);
  }
}

function schemaFiles(dir) {
  return fs
    .readdirSync(path.join(specDir, dir))
    .filter((f) => f.endsWith(".json"))
    .sort();
}

const toolSets = {};
for (const dir of ["input", "published"]) {
  toolSets[dir] = [];
  for (const f of schemaFiles(dir)) {
    const label = `${dir}/${f}`;
    let schema;
    try {
      schema = JSON.parse(fs.readFileSync(path.join(specDir, dir, f), "utf8"));
    } catch (e) {
      failures.push(`${label}: decode: ${e.message}`);
      continue;
    }
    toolSets[dir].push(f.replace(/\.json$/, ""));
    compile(label, schema);
  }
}

const outputs = JSON.parse(fs.readFileSync(outputsFile, "utf8"));
toolSets.output = Object.keys(outputs).sort();
for (const tool of toolSets.output) {
  compile(`output/${tool}`, outputs[tool]);
}

const want = JSON.stringify(toolSets.input);
for (const [kind, tools] of Object.entries(toolSets)) {
  if (JSON.stringify(tools) !== want) {
    failures.push(`${kind}: tool set differs from spec/input (${tools.length} vs ${toolSets.input.length})`);
  }
}
if (toolSets.input.length === 0) {
  failures.push("no input schemas found");
}

if (failures.length > 0) {
  for (const f of failures) console.error("FAIL " + f);
  console.error(`${failures.length} failure(s), ${compiled} schema(s) compiled`);
  process.exit(1);
}
console.log(`ok: ${compiled} schemas compiled with Ajv draft 2020-12 (${toolSets.input.length} tools x input, published, output)`);

// eslint for the browser modules (bin/test runs it: npx eslint frontend/static).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["frontend/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];

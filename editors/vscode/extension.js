// Starts `meeple lsp` for .rules files (the command is the `meeple.command` setting) and stops it
// with the editor. Everything the editor shows beyond colours comes from the server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("meeple").get("command", ["meeple", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "meeple",
    "meeple",
    { run: server, debug: server },
    { documentSelector: [{ language: "meeple" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

// extension.js — starts the Mosaic language server, mosaic-lsp, for .mos
// files (docs/editors.md).
//
// Highlighting needs none of this: it is the grammar in syntaxes/.  The
// server needs the npm package vscode-languageclient; without it (the
// extension was copied without `npm install`) the extension says so once
// and highlighting still works.
'use strict';
const vscode = require('vscode');

let client;

function activate(context) {
    const command = vscode.workspace.getConfiguration('mosaic').get('server.path', 'mosaic-lsp');
    if (!command)
        return;
    let lc;
    try {
        lc = require('vscode-languageclient/node');
    } catch (e) {
        vscode.window.showWarningMessage(
            'Mosaic: run "npm install" in ' + context.extensionPath +
            ' to use the language server (mosaic-lsp).');
        return;
    }
    const server = { command: command, transport: lc.TransportKind.stdio };
    client = new lc.LanguageClient('mosaic', 'Mosaic language server',
        { run: server, debug: server },
        { documentSelector: [{ scheme: 'file', language: 'mosaic' }] });
    client.start();
}

function deactivate() {
    return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

// Starts `warplint server` for CUDA files and hands it to VS Code's
// language client: diagnostics, rule links and quick fixes all come from
// the server.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The command line from the `warplint.path` and `warplint.args` settings. */
function serverOptions(): ServerOptions {
  const config = vscode.workspace.getConfiguration("warplint");
  const command = config.get<string>("path")?.trim() || "warplint";
  const extra = config.get<string[]>("args") ?? [];
  // No `transport` option: VS Code would append `--stdio`; the server
  // speaks stdio anyway.
  return { command, args: ["server", ...extra] };
}

const clientOptions: LanguageClientOptions = {
  // VS Code's built-in CUDA language id, and the file patterns for setups
  // where another extension claims `.cu`/`.cuh`.
  documentSelector: [
    { scheme: "file", language: "cuda-cpp" },
    { scheme: "untitled", language: "cuda-cpp" },
    { scheme: "file", pattern: "**/*.{cu,cuh}" },
  ],
};

async function start(): Promise<void> {
  client = new LanguageClient("warplint", "warplint", serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    const path = vscode.workspace.getConfiguration("warplint").get<string>("path");
    void vscode.window.showErrorMessage(
      `warplint: cannot start \`${path} server\` (${String(err)}). Set "warplint.path" to the warplint executable.`,
    );
  }
}

async function restart(): Promise<void> {
  if (client) {
    await client.stop().catch(() => undefined);
    client = undefined;
  }
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("warplint.restartServer", restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("warplint.path") || e.affectsConfiguration("warplint.args")) {
        void restart();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}

-- warplint with nvim-lspconfig, or with Neovim 0.11's vim.lsp.config.
-- Put one of the two blocks in init.lua.

-- Neovim 0.11 and later: no plugin needed.
if vim.lsp.config then
  vim.lsp.config("warplint", {
    cmd = { "warplint", "server" },
    filetypes = { "cuda" },
    root_markers = { "warplint.toml", ".warplint.toml", ".git" },
  })
  vim.lsp.enable("warplint")
  return
end

-- Older Neovim with the nvim-lspconfig plugin: register warplint as a
-- custom server, then set it up like any other.
local configs = require("lspconfig.configs")
local util = require("lspconfig.util")
if not configs.warplint then
  configs.warplint = {
    default_config = {
      cmd = { "warplint", "server" },
      filetypes = { "cuda" },
      root_dir = util.root_pattern("warplint.toml", ".warplint.toml", ".git"),
      single_file_support = true,
    },
  }
end
require("lspconfig").warplint.setup({})

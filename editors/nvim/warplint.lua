-- warplint language server for Neovim, without plugins (Neovim 0.7 or later).
--
-- Copy this file to ~/.config/nvim/plugin/warplint.lua, or `dofile()` it
-- from init.lua. It starts `warplint server` for every buffer whose
-- filetype is `cuda` (Neovim gives `.cu` and `.cuh` that filetype), one
-- server per project root (the directory holding warplint.toml,
-- .warplint.toml or .git).
--
-- To change the command or pass arguments, set this before the file runs:
--   vim.g.warplint_cmd = { "/path/to/warplint", "server", "--select", "WL001,WL002" }

local cmd = vim.g.warplint_cmd or { "warplint", "server" }
local root_markers = { "warplint.toml", ".warplint.toml", ".git" }

-- The nearest directory above the buffer's file that holds a root marker,
-- else the file's own directory. (vim.fs is not in Neovim 0.7.)
local function root_dir(bufnr)
  local start = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":p:h")
  local dir = start
  while true do
    for _, marker in ipairs(root_markers) do
      local path = dir .. "/" .. marker
      if vim.fn.filereadable(path) == 1 or vim.fn.isdirectory(path) == 1 then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return start
    end
    dir = parent
  end
end

-- Neovim 0.7 has no vim.lsp.start: keep one client per root and attach to it.
local clients_by_root = {}

local function attach(bufnr)
  local config = { name = "warplint", cmd = cmd, root_dir = root_dir(bufnr) }
  if vim.lsp.start then
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(config)
    end)
    return
  end
  local id = clients_by_root[config.root_dir]
  if id == nil or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    clients_by_root[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  group = vim.api.nvim_create_augroup("warplint", { clear = true }),
  pattern = "cuda",
  callback = function(args)
    attach(args.buf)
  end,
})

-- Neovim's own LSP client against `warplint server`; run headless by
-- tests/lsp_nvim.rs, which reads the JSON this writes and checks it.
-- It loads the shipped editors/nvim/warplint.lua snippet to attach.
local out_path = assert(os.getenv("WARPLINT_NVIM_OUT"), "WARPLINT_NVIM_OUT")
local result = {}

local function version()
  local v = vim.version()
  return string.format("%d.%d.%d", v.major, v.minor, v.patch)
end

local function snapshot(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data and d.user_data.lsp) or {}
    table.insert(list, {
      lnum = d.lnum,
      col = d.col,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
      code = d.code or lsp.code,
      href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
    })
  end
  return list
end

local function clients_of(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.lsp.buf_get_clients(buf)
end

-- Back from Neovim's diagnostic (byte columns) to the LSP one the server
-- published, as Neovim's own code-action request does.
local function to_lsp(buf, d, encoding)
  local lsp = (d.user_data and d.user_data.lsp) or {}
  local function position(row, col)
    return { line = row, character = vim.lsp.util.character_offset(buf, row, col, encoding) }
  end
  return {
    range = { start = position(d.lnum, d.col), ["end"] = position(d.end_lnum, d.end_col) },
    message = d.message,
    source = d.source,
    code = d.code or lsp.code,
    data = lsp.data,
  }
end

local ok, err = pcall(function()
  result.nvim = version()
  vim.g.warplint_cmd = { assert(os.getenv("WARPLINT_BIN")), "server" }
  vim.cmd("filetype on")
  dofile(assert(os.getenv("WARPLINT_NVIM_SNIPPET")))
  vim.cmd("edit " .. vim.fn.fnameescape(assert(os.getenv("WARPLINT_NVIM_FILE"))))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype

  result.got_diagnostics = vim.wait(20000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  result.initial = snapshot(buf)
  if not result.got_diagnostics then
    return
  end

  local client
  for _, c in pairs(clients_of(buf)) do
    client = c
  end
  result.client_name = client.name
  result.offset_encoding = client.offset_encoding

  local first = vim.diagnostic.get(buf)[1]
  local lsp_diag = to_lsp(buf, first, client.offset_encoding)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag } },
  }
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000)
  result.actions = {}
  local fix
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(result.actions, action.title)
      if action.title:find("^Unsafe fix") then
        fix = action
      end
    end
  end
  if not fix then
    return
  end

  -- Applying the fix edits the buffer; Neovim sends didChange and the
  -- server, after its quiet period, publishes no diagnostics.
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  result.fixed_line = vim.api.nvim_buf_get_lines(buf, first.lnum, first.lnum + 1, false)[1]
  result.cleared = vim.wait(20000, function()
    return #vim.diagnostic.get(buf) == 0
  end, 50)
  result.after_fix = snapshot(buf)
end)
if not ok then
  result.error = tostring(err)
end
vim.fn.writefile({ vim.fn.json_encode(result) }, out_path)
vim.cmd("qall!")

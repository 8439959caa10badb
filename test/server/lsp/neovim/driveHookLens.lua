-- Drives hooklens-language-server from Neovim's built-in LSP client (0.7 and later), headless, and
-- writes what Neovim received as JSON for test/server/lsp/neovim.test.ts. Environment:
-- HOOKLENS_BIN (the bin), HOOKLENS_ROOT (the project), HOOKLENS_OUT (where the JSON goes).
local bin = os.getenv("HOOKLENS_BIN")
local root = os.getenv("HOOKLENS_ROOT")
local out = os.getenv("HOOKLENS_OUT")
local result = { published = {}, shown = {}, hover = "", actions = {} }

-- Record every publication as it arrives, then let Neovim's own handler show it.
local show = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
  local entry = { uri = params.uri, diagnostics = {} }
  for _, d in ipairs(params.diagnostics) do
    table.insert(entry.diagnostics, { code = d.code, line = d.range.start.line, character = d.range.start.character, message = d.message, raw = d })
  end
  table.insert(result.published, entry)
  return show(err, params, ctx, config)
end

local client_id = vim.lsp.start_client({ name = "hooklens", cmd = { bin, "--stdio" }, root_dir = root })
local client = vim.lsp.get_client_by_id(client_id)
result.pid = client.rpc.pid

local function open(name)
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  return bufnr, vim.uri_from_bufnr(bufnr)
end

local function published_for(uri)
  for i = #result.published, 1, -1 do
    if result.published[i].uri == uri then return result.published[i] end
  end
end

local function finish()
  for _, entry in ipairs(result.published) do
    for _, d in ipairs(entry.diagnostics) do d.raw = nil end
  end
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end

local trap_buf, trap_uri = open("trap.ts")
if not vim.wait(120000, function() return published_for(trap_uri) ~= nil end, 50) then
  result.error = "no diagnostics published for trap.ts"
  return finish()
end
for _, d in ipairs(vim.diagnostic.get(trap_buf)) do
  table.insert(result.shown, { code = d.code, lnum = d.lnum, message = d.message })
end

local first = published_for(trap_uri).diagnostics[1]
if first then
  local position = { line = first.line, character = first.character + 1 }
  local hover = client.request_sync("textDocument/hover", { textDocument = { uri = trap_uri }, position = position }, 60000, trap_buf)
  if hover and hover.result and hover.result.contents then result.hover = hover.result.contents.value or "" end
  local actions = client.request_sync("textDocument/codeAction", {
    textDocument = { uri = trap_uri },
    range = first.raw.range,
    context = { diagnostics = { first.raw } },
  }, 60000, trap_buf)
  for _, action in ipairs((actions and actions.result) or {}) do
    table.insert(result.actions, { title = action.title, preferred = action.isPreferred == true })
  end
end

local _, clean_uri = open("clean.ts")
if not vim.wait(120000, function() return published_for(clean_uri) ~= nil end, 50) then
  result.error = "no diagnostics published for clean.ts"
end
finish()

-- wrk script (Benchmarks/wrk-three-servers): each request carries the next token of a pool,
-- read from the file named after `--` (one token a line), as `Authorization: Bearer TOKEN`.
-- Every wrk thread walks the whole pool from its own starting point, so no server sees the
-- same token twice in a row and nothing can be answered from a cache of one token.
local counter = 0
local tokens = {}
local index = 0

function setup(thread)
    thread:set("thread_number", counter)
    counter = counter + 1
end

function init(args)
    local path = args[1]
    if path == nil then error("usage: wrk -s wrk-token-pool.lua URL -- TOKENS_FILE") end
    for line in io.lines(path) do
        if #line > 0 then tokens[#tokens + 1] = line end
    end
    if #tokens == 0 then error("no tokens in " .. path) end
    index = ((thread_number or 0) * 7919) % #tokens
end

function request()
    index = index % #tokens + 1
    return wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. tokens[index] })
end

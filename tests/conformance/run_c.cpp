// run_c.cpp - the C runner of the conformance suite: every case of cases/*.json (read with nlohmann-json) through
// the C ABI alone, compared with the expected dtype, shape and values (per-dtype tolerances; NaN equals NaN;
// integers exactly) and, for differentiable cases, the input gradients after ct_backward(grad_output); error cases
// must return the expected ct_status. Prints the failures and "N passed, N failed"; exits 1 when any failed.
// Usage: conformance_c CASES_DIR (CONFORMANCE_RESULTS_DIR, if set, receives c.json for pass_table.py)
#include "c_ops.h"
#include <dirent.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace conformance;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: conformance_c CASES_DIR\n");
        return 2;
    }
    std::vector<std::string> files;
    if (DIR* d = opendir(argv[1])) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name.size() > 5 && name.substr(name.size() - 5) == ".json") files.push_back(std::string(argv[1]) + "/" + name);
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "conformance_c: no cases in %s\n", argv[1]);
        return 2;
    }
    auto table = op_table();
    int passed = 0;
    std::vector<std::string> failures;
    std::set<std::string> ops, failed_ops;
    for (const std::string& path : files) {
        std::ifstream in(path);
        Json doc = Json::parse(in);
        for (const Json& c : doc["cases"]) {
            const std::string op = c["op"].get<std::string>();
            ops.insert(op);
            std::string problem;
            try {
                run_case(c, table);
                ++passed;
                continue;
            } catch (const Problem& p) {
                problem = p.what;
            } catch (const std::exception& e) {
                problem = e.what();
            }
            failures.push_back(c["id"].get<std::string>() + ": " + problem);
            failed_ops.insert(op);
        }
    }
    for (size_t i = 0; i < failures.size() && i < 50; ++i) std::printf("FAIL %s\n", failures[i].c_str());
    std::printf("%d passed, %zu failed\n", passed, failures.size());
    if (const char* dir = std::getenv("CONFORMANCE_RESULTS_DIR")) {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (!ec) {
            Json r = {{"language", "C"}, {"run", passed + (int)failures.size()}, {"passed", passed},
                      {"failed", failures.size()}, {"ops", ops.size()}, {"ops_passed", ops.size() - failed_ops.size()}};
            std::ofstream(std::string(dir) + "/c.json") << r.dump() << "\n";
        }
    }
    if (ct_live_handles() != 0) {
        std::printf("leaked %lld handles\n", (long long)ct_live_handles());
        return 1;
    }
    return failures.empty() ? 0 : 1;
}

// test_ops_list.cpp - abi/ops.tsv (the machine-readable op list) matches include/ctensor.h, and every listed
// op is exported by the loaded library.
#include <dlfcn.h>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include "ct_test.h"

namespace {

std::string source_dir() {
    std::string f = __FILE__;
    return f.substr(0, f.rfind("/tests/"));
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct OpRow {
    std::string name, cfun, category;
    bool differentiable;
};

std::vector<OpRow> read_ops() {
    std::vector<OpRow> rows;
    std::ifstream in(source_dir() + "/abi/ops.tsv");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::stringstream ss(line);
        OpRow r;
        std::string diff;
        std::getline(ss, r.name, '\t');
        std::getline(ss, r.cfun, '\t');
        std::getline(ss, diff, '\t');
        std::getline(ss, r.category, '\t');
        r.differentiable = diff == "1";
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

TEST(OpsList, MatchesHeaderAndIsExported) {
    auto rows = read_ops();
    ASSERT_GT(rows.size(), 100u) << "abi/ops.tsv not found or empty under " << source_dir();
    std::string header = read_file(source_dir() + "/include/ctensor.h");
    std::set<std::string> listed;
    for (auto& r : rows) {
        EXPECT_EQ("ct_" + r.name, r.cfun);
        EXPECT_TRUE(listed.insert(r.cfun).second) << r.cfun << " is listed twice";
        EXPECT_NE(header.find("CT_API ct_status " + r.cfun + "("), std::string::npos)
            << r.cfun << " is in abi/ops.tsv but not declared in include/ctensor.h";
        EXPECT_NE(dlsym(RTLD_DEFAULT, r.cfun.c_str()), nullptr) << r.cfun << " is not exported by libctensor";
    }
    // every op declared from the Creation section to the end of the header is listed, except in the sections
    // of state and objects (autograd, optimizers, DLPack, safetensors, process groups) and the helpers below
    const std::set<std::string> not_op_sections = {"Autograd", "Optimizers", "DLPack", "safetensors", "Distributed"};
    std::set<std::string> not_ops = {"ct_generator_new", "ct_generator_seed", "ct_manual_seed", "ct_tensor_copy_to_host",
                                     "ct_tensor_item", "ct_tensor_item_int64", "ct_tensor_item_complex", "ct_finfo",
                                     "ct_iinfo", "ct_autocast_set_enabled", "ct_autocast_is_enabled",
                                     "ct_autocast_set_dtype", "ct_autocast_get_dtype", "ct_autocast_policy",
                                     "ct_promote_types", "ct_can_cast", "ct_result_type"};  // dtype queries, no tensors out
    // one pass over the declarations, each seen with the title (first word) of the section it is in
    std::regex title_or_decl("/\\* ---- ([A-Za-z]+)|CT_API ct_status (ct_[a-z0-9_]+)\\(");
    size_t begin = header.find("/* ---- Creation");
    ASSERT_NE(begin, std::string::npos);
    std::string title;
    for (std::sregex_iterator it(header.cbegin() + (long)begin, header.cend(), title_or_decl), e; it != e; ++it) {
        if ((*it)[1].matched) {
            title = (*it)[1];
            continue;
        }
        std::string name = (*it)[2];
        if (not_ops.count(name) || not_op_sections.count(title)) continue;
        EXPECT_TRUE(listed.count(name)) << name << " (section " << title
                                        << ") is declared in the header but missing from abi/ops.tsv";
    }
}

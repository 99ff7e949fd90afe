// gtest_main.cpp - runs the suite with a leak check: every test must end with as many live handles as it began.
#include <gtest/gtest.h>
#include "ctensor.h"

namespace {
class LiveHandleCheck : public ::testing::EmptyTestEventListener {
    int64_t before_ = 0;
    void OnTestStart(const ::testing::TestInfo&) override { before_ = ct_live_handles(); }
    void OnTestEnd(const ::testing::TestInfo& info) override {
        int64_t after = ct_live_handles();
        EXPECT_EQ(after, before_) << info.test_suite_name() << "." << info.name() << " leaked " << (after - before_)
                                  << " handle(s)";
    }
};
}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new LiveHandleCheck);
    if (ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR) != CT_OK) {
        fprintf(stderr, "ABI check failed: %s\n", ct_last_error());
        return 1;
    }
    return RUN_ALL_TESTS();
}
